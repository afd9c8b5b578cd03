import Foundation
import Testing

/// `atoauth doctor` on an account signed in here: the live check of the session, the passphrase asked once, the
/// failed checks under the summary (`--problems`), the deadline, and paths safe to paste.
@Suite("atoauth doctor: the session, the summary, the deadline")
struct DoctorSessionTests {
    @Test(
        "A grant revoked at the server fails session-live with the sign-in command; the doctor deletes nothing",
        .timeLimit(.minutes(2))
    )
    func revoked() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("bob.test")
            let did = try #require(world.did("bob.test"))
            try await world.revokeAtServer(sessionOf: did)

            let (status, checks, result) = try await DoctorTests.diagnose(world, ["bob.test"])
            #expect(status == 1, "\(result.stdout) \(result.stderr)")
            let live = try #require(checks["session-live"])
            #expect(live["status"] as? String == "fail", "\(live)")
            #expect((live["seen"] as? String)?.contains("refused") == true, "\(live)")
            #expect(live["who"] as? String == "user")
            #expect((live["fix"] as? String)?.contains("atoauth accounts add bob.test") == true, "\(live)")
            #expect(try world.storedNames().contains("session/\(did)"), "the doctor changes nothing")

            // The text repeats the failure and its fix under the summary, where it does not scroll away.
            let text = try await world.atoauth("doctor", "bob.test")
            #expect(text.status == 1, "\(text.stderr)")
            let summary = try #require(text.stdout.range(of: "1 failed: a sign-in fails"), "\(text.stdout)")
            let below = text.stdout[summary.upperBound...]
            #expect(below.contains("Failed:\nfail  session-live  the PDS refused"), "\(below)")
            #expect(below.contains("Sign in again: atoauth accounts add bob.test."), "\(below)")

            // --problems shows only the failed checks, with the same summary.
            let problems = try await world.atoauth("doctor", "bob.test", "--problems")
            #expect(problems.status == 1, "\(problems.stderr)")
            let lines = problems.stdout.split(separator: "\n")
            let failing = lines.filter { $0.hasPrefix("fail  ") }
            #expect(failing.count == 1 && failing[0].hasPrefix("fail  session-live  "), "\(problems.stdout)")
            #expect(!lines.contains { $0.hasPrefix("pass  ") || $0.hasPrefix("skip  ") || $0.hasPrefix("warn  ") })
            #expect(problems.stdout.contains("failed, "), "the summary stays: \(problems.stdout)")
            let json = try await world.atoauth("doctor", "bob.test", "--problems", "--json")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any],
                "\(json.stdout) \(json.stderr)"
            )
            let shown = try #require(object["checks"] as? [[String: Any]])
            #expect(shown.compactMap { $0["check"] as? String } == ["session-live"], "\(shown)")
            #expect(json.status == 1)
        }
    }

    @Test(
        "With a passphrase store on a terminal and no argument, the passphrase is asked once",
        .timeLimit(.minutes(2))
    )
    func passphraseOnce() async throws {
        try await CLIWorld.with { world in
            let passphrase = "correct horse battery staple"
            let added = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                extraEnvironment: ["ATOAUTH_PASSPHRASE": passphrase]
            )
            #expect(added.status == 0, "\(added.stderr)")

            let terminal = try TerminalProcess(["doctor"], environment: world.environment)
            let prompt = "Passphrase of the store at \(world.home.path) (it is not shown): "
            try await terminal.waitFor(prompt)
            terminal.type(passphrase + "\n")
            let (status, screen) = try await terminal.finish()
            #expect(status == 0, "\(screen)")
            #expect(screen.components(separatedBy: prompt).count == 2, "asked exactly once: \(screen)")
            #expect(screen.contains("pass  session-live"), "\(screen)")
            #expect(!screen.contains(passphrase), "what is typed is never shown")
        }
    }

    @Test(
        "The report safe to paste shows no path under $HOME but as ~, and the store elsewhere as <store>",
        .timeLimit(.minutes(2))
    )
    func pasteSafe() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let text = try await world.atoauth("doctor", "alice.test")
            let json = try await world.atoauth("doctor", "alice.test", "--json")
            for result in [text, json] {
                #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
                #expect(!result.stdout.contains(world.directory.path), "\(result.stdout)")
                #expect(result.stdout.contains("~/home is 0700"), "\(result.stdout)")
                #expect(result.stdout.contains("~/config/store.key"), "\(result.stdout)")
            }
            #expect(text.stdout.contains("safe to paste into a public issue"))

            // A store outside $HOME is not named at all.
            let elsewhere = world.directory.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let outside = try await world.atoauth("doctor", "alice.test", extraEnvironment: ["HOME": elsewhere.path])
            #expect(outside.status == 0, "\(outside.stdout) \(outside.stderr)")
            #expect(!outside.stdout.contains(world.directory.path), "\(outside.stdout)")
            #expect(outside.stdout.contains("<store> is 0700"), "\(outside.stdout)")
            #expect(outside.stdout.contains("<key file> is 0600"), "\(outside.stdout)")
        }
    }

    @Test(
        "When the deadline passes, the checks not done are reported as such and the exit status is 1",
        .timeLimit(.minutes(2))
    )
    func deadline() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            // Every answer of the PLC directory, the PDS and the authorization server now takes 5 s.
            try await world.sandbox.configure(#"{"slowResponses": 5}"#)
            let started = ContinuousClock.now
            let result = try await world.atoauth("doctor", "alice.test", "--deadline", "1", "--json")
            let took = ContinuousClock.now - started
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            #expect(took < .seconds(15), "the deadline holds, slow answers or not: \(took)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                "\(result.stdout) \(result.stderr)"
            )
            let notDone = try #require(object["notDone"] as? [String])
            #expect(notDone.contains("par-request") && notDone.contains("session-live"), "\(notDone)")
            let checks = try #require(object["checks"] as? [[String: Any]])
            for check in checks where notDone.contains(check["check"] as? String ?? "") {
                #expect(check["status"] as? String == "skip", "\(check)")
                #expect((check["seen"] as? String)?.hasPrefix("not done") == true, "\(check)")
            }

            let text = try await world.atoauth("doctor", "alice.test", "--deadline", "1")
            #expect(text.status == 1, "\(text.stderr)")
            #expect(text.stdout.contains("Not done: the deadline (--deadline 1 s) passed before"), "\(text.stdout)")
            let invalid = try await world.atoauth("doctor", "alice.test", "--deadline", "0")
            #expect(invalid.status == 2 && invalid.stderr.contains("--deadline"), "\(invalid.stderr)")
            try await world.sandbox.configure(#"{"slowResponses": 0}"#)
        }
    }
}
