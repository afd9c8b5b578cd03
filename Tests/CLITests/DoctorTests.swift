import Crypto
import Foundation
import Keystore
import Testing

/// `atoauth doctor` against the sandbox: healthy, and with each fault it can simulate.
@Suite("atoauth doctor")
struct DoctorTests {
    /// A fault, the check it must fail, who must fix it, and a word the advice must hold.
    struct FaultCase: Sendable, CustomTestStringConvertible {
        var flags: [String]
        var arguments: [String] = []
        var check: String
        var who: String
        var advice: String
        var testDescription: String { flags.joined(separator: " ") }
    }

    static let faults = [
        FaultCase(flags: ["--issuer-mismatch"], check: "as-metadata-issuer", who: "server", advice: "identical"),
        FaultCase(flags: ["--no-iss-parameter"], check: "as-metadata-iss", who: "server", advice: "iss"),
        FaultCase(
            flags: ["--did-document-names-other-handle"],
            check: "did-handle",
            who: "user",
            advice: "alsoKnownAs"
        ),
        FaultCase(
            flags: ["--prm-names-other-server"],
            check: "as-metadata",
            who: "server",
            advice: "authorization_servers"
        ),
        FaultCase(
            flags: ["--refuse-scope", "transition:generic"],
            check: "par-scope",
            who: "app",
            advice: "scopes this server accepts"
        ),
        FaultCase(
            flags: [],
            arguments: ["--scope", "atproto include:com.example.nothing"],
            check: "par-scope",
            who: "app",
            advice: "lexicon"
        ),
        FaultCase(flags: ["--no-dpop-nonces"], check: "dpop-nonce", who: "server", advice: "nonces"),
        FaultCase(flags: ["--clock-skew", "3600"], check: "server-clock", who: "user", advice: "clock"),
    ]

    /// Runs `atoauth doctor arguments… --json` and returns the exit status and the checks by name; the object's
    /// `target` must be `target`, by default the first argument (what was diagnosed, as given).
    static func diagnose(
        _ world: CLIWorld,
        _ arguments: [String],
        target: String? = nil
    ) async throws -> (status: Int32, checks: [String: [String: Any]], result: CLIProcess.Result) {
        let result = try await world.atoauth(["doctor"] + arguments + ["--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "stdout: \(result.stdout) stderr: \(result.stderr)"
        )
        #expect(Set(object.keys) == ["target", "checks", "notDone"], "\(object.keys)")
        let expected = try #require(target ?? arguments.first, "the target to expect")
        #expect(object["target"] as? String == expected, "target: \(object["target"] ?? "missing")")
        let checks = try #require(object["checks"] as? [[String: Any]])
        var byName: [String: [String: Any]] = [:]
        for check in checks {
            let name = try #require(check["check"] as? String)
            #expect(byName[name] == nil, "\(name) appears once")
            #expect(Set(check.keys) == ["check", "status", "seen", "rule", "fix", "who"])
            byName[name] = check
        }
        return (result.status, byName, result)
    }

    @Test("A healthy sandbox fails no check, and everything a sign-in needs passes", .timeLimit(.minutes(2)))
    func healthy() async throws {
        try await CLIWorld.with { world in
            let (status, checks, result) = try await Self.diagnose(world, ["alice.test"])
            #expect(status == 0, "\(result.stdout)")
            #expect(checks.values.allSatisfy { $0["status"] as? String != "fail" })
            for name in [
                "handle-resolution", "did-document", "did-handle", "did-pds", "pds-address", "resource-metadata",
                "as-metadata", "as-metadata-issuer", "as-metadata-par", "as-metadata-dpop", "as-metadata-pkce",
                "as-metadata-grants", "as-metadata-iss", "as-metadata-client-auth", "as-metadata-client-id-documents",
                "as-metadata-scopes",
                "as-metadata-prompt",
                "as-metadata-endpoints", "as-protected-resources", "par-request", "par-scope", "dpop-nonce",
                "server-clock",
            ] {
                #expect(checks[name]?["status"] as? String == "pass", "\(name): \(checks[name]?["seen"] ?? "missing")")
            }
            // A resolution service is configured, so the two standard methods cannot run.
            #expect(checks["handle-dns"]?["status"] as? String == "skip")
            #expect(checks["store-files"]?["status"] as? String == "skip")
        }
    }

    @Test(
        "Each fault the sandbox simulates fails the right check with the right advice",
        .timeLimit(.minutes(2)),
        arguments: Self.faults
    )
    func fault(_ fault: FaultCase) async throws {
        try await CLIWorld.with(fault.flags) { world in
            let (status, checks, result) = try await Self.diagnose(world, ["alice.test"] + fault.arguments)
            #expect(status == 1, "\(result.stdout) \(result.stderr)")
            let finding = try #require(checks[fault.check])
            #expect(finding["status"] as? String == "fail", "\(finding)")
            #expect(finding["who"] as? String == fault.who)
            let fix = try #require(finding["fix"] as? String)
            #expect(fix.localizedCaseInsensitiveContains(fault.advice), "\(fix)")
        }
    }

    @Test(
        "For an account signed in here, the local side is checked; nothing changes and no secret is shown",
        .timeLimit(.minutes(2))
    )
    func signedIn() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            let session = try world.storedSession(did)
            let before = try world.files()
            // Without an argument, the active account is diagnosed, named by its handle.
            let (status, checks, result) = try await Self.diagnose(world, [], target: "alice.test")
            #expect(status == 0, "\(result.stdout)")
            for name in ["store-files", "session-expiry", "last-refresh", "account-moved", "session-live"] {
                #expect(checks[name]?["status"] as? String == "pass", "\(name): \(checks[name]?["seen"] ?? "missing")")
            }
            let text = try await world.atoauth("doctor", "alice.test")
            #expect(text.status == 0)
            #expect(text.stdout.contains("safe to paste into a public issue"))
            for secret in [session["accessToken"], session["refreshToken"]].compactMap({ $0 as? String }) {
                #expect(
                    !result.stdout.contains(secret) && !text.stdout.contains(secret) && !text.stderr.contains(secret)
                )
            }
            let after = try world.files()
            #expect(before.map(\.url) == after.map(\.url))
            #expect(zip(before, after).allSatisfy { $0.bytes == $1.bytes && $0.mode == $1.mode })
        }
    }

    /// Signs alice.test in and writes the note a refresh writes before it sends her refresh token.
    static func aliceWithRefreshNote(
        _ world: CLIWorld,
        appPassword: Bool = false
    ) async throws -> (store: EncryptedFileKeystore, did: String) {
        _ = try await appPassword ? world.signInWithAppPassword("alice.test") : world.signIn("alice.test")
        let did = try #require(world.did("alice.test"))
        let refreshToken = try #require(try world.storedSession(did)["refreshToken"] as? String)
        let store = try EncryptedFileKeystore(directory: world.home, keySource: .keyFile(world.keyFile))
        try store.save(Data(SHA256.hash(data: Data(refreshToken.utf8))), as: "refreshing/\(did)")
        return (store, did)
    }

    @Test("A refresh cut off after sending is reported from the refresh journal's note", .timeLimit(.minutes(2)))
    func cutOffRefresh() async throws {
        try await CLIWorld.with { world in
            _ = try await Self.aliceWithRefreshNote(world)
            let (status, checks, _) = try await Self.diagnose(world, ["alice.test"])
            #expect(status == 1)
            #expect(checks["last-refresh"]?["status"] as? String == "fail")
            #expect((checks["last-refresh"]?["fix"] as? String)?.contains("atoauth accounts add alice.test") == true)
        }
    }

    @Test(
        "An app-password session's refresh note is no failure: its refresh JWT may be sent again",
        .timeLimit(.minutes(2))
    )
    func appPasswordRefreshNote() async throws {
        try await CLIWorld.with { world in
            _ = try await Self.aliceWithRefreshNote(world, appPassword: true)
            let (_, checks, result) = try await Self.diagnose(world, ["alice.test"])
            #expect(checks["last-refresh"]?["status"] as? String == "pass", "\(result.stdout)")
        }
    }

    @Test(
        "A refresh under way in another process (its note written, its entry locked) is waited for, never called cut off",
        .timeLimit(.minutes(2))
    )
    func refreshUnderWay() async throws {
        try await CLIWorld.with { world in
            let (store, did) = try await Self.aliceWithRefreshNote(world)
            // As a refresh holds it while its request is out, beside the note it wrote: the session entry's lock.
            try await store.withLock("session/\(did)") {
                let (_, checks, result) = try await Self.diagnose(world, ["alice.test", "--deadline", "10"])
                #expect(checks["last-refresh"]?["status"] as? String == "skip", "\(result.stdout)")
                #expect((checks["last-refresh"]?["seen"] as? String)?.contains("deadline") == true)
                try store.delete("refreshing/\(did)")
            }
        }
    }

    @Test("A refresh that failed on a server error shows in last-refresh until one succeeds", .timeLimit(.minutes(2)))
    func failedRefresh() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "1", "--fail-refreshes", "1"]) { world in
            try await world.signIn("alice.test")
            try await world.sandbox.expireAccessTokens(issuedFor: 1, then: "{}")
            let failed = try await world.atoauth("whoami")
            #expect(failed.status == 1, "\(failed.stderr)")
            let (_, checks, _) = try await Self.diagnose(world, ["alice.test"])
            #expect(checks["last-refresh"]?["status"] as? String == "warn", "\(checks["last-refresh"] ?? [:])")
            #expect((checks["last-refresh"]?["seen"] as? String)?.contains("failed") == true)
            #expect(try await world.atoauth("whoami").status == 0)
            let (_, after, _) = try await Self.diagnose(world, ["alice.test"])
            #expect(after["last-refresh"]?["status"] as? String == "pass", "\(after["last-refresh"] ?? [:])")
        }
    }

    @Test(
        "Without a store, the doctor creates none, and without a target it asks for one (exit 2)",
        .timeLimit(.minutes(2))
    )
    func noStore() async throws {
        try await CLIWorld.with { world in
            let (status, checks, _) = try await Self.diagnose(world, ["bob.test"])
            #expect(status == 0)
            #expect(checks["store-files"]?["status"] as? String == "skip")
            #expect(!FileManager.default.fileExists(atPath: world.home.path))
            #expect(!FileManager.default.fileExists(atPath: world.keyFile.path))
            let bare = try await world.atoauth("doctor")
            #expect(bare.status == 2)
            #expect(bare.stderr.contains("name a handle"))
            try await world.signIn("alice.test")
            let unknown = try await world.atoauth("doctor", "--account", "nobody.test")
            #expect(unknown.status == 2, "never 3: the doctor signs nothing in; \(unknown.stderr)")
        }
    }

    @Test(
        "Input that is no account or server is a usage error (exit 2)",
        arguments: ["not a handle!", "ftp://x.example"]
    )
    func usage(_ input: String) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await CLIProcess.run(["doctor", input, "--home", home.path], environment: ["HOME": home.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
