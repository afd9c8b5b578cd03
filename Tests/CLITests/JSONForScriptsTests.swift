import ATOAuthTesting
import Foundation
import Testing

/// `--json` as scripts read it: one shape for one name across commands, and stderr of the long-running commands made
/// of JSON lines only.
@Suite("JSON for scripts, the same across commands", .serialized)
struct JSONForScriptsTests {
    @Test("active is a boolean about the object's own account in accounts list, status and remove")
    func activeMeansOneThing() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))

            let list = try Self.objects(try await world.atoauth("accounts", "list", "--json"))
            #expect(list.map { $0["active"] as? Bool } == list.map { .some($0["did"] as? String == bob) })
            let status = try Self.objects(try await world.atoauth("accounts", "status", "alice.test", "--json"))
            #expect(status.first?["active"] as? Bool == false)

            // alice is not the active account: removing her leaves bob active.
            let first = try #require(
                try Self.objects(try await world.atoauth("accounts", "remove", alice, "--json")).first
            )
            #expect(first["did"] as? String == alice)
            #expect(first["active"] as? Bool == false, "\(first)")
            #expect((first["activeAccount"] as? [String: Any])?["did"] as? String == bob)
            #expect((first["activeAccount"] as? [String: Any])?["handle"] as? String == "bob.test")
            #expect(first["activeChanged"] as? Bool == false)

            // bob is: removing him leaves none active.
            let last = try #require(
                try Self.objects(try await world.atoauth("accounts", "rm", "bob.test", "--json")).first
            )
            #expect(last["active"] as? Bool == true, "\(last)")
            #expect(last["activeAccount"] is NSNull, "\(last)")
            #expect(last["activeChanged"] as? Bool == true)
        }
    }

    @Test("with --json every line the gateway writes on stderr is a JSON object: warnings, notes, requests, Ctrl-C")
    func gatewayLogIsJSON() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            // A loose home gets a warning from the store as it opens: with --json, a record like the others.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: world.home.path)
            let socket = world.directory.appendingPathComponent("gateway.sock")
            let gateway = try await GatewayProcess(in: world, ["--json", "-v", "--socket", socket.path])
            #expect(gateway.address == "unix:\(socket.path)")
            let token = try gateway.token()
            let session = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.server.getSession", token: token))
            #expect(session.status == 200, "\(session.body)")
            let refused = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.server.getSession", token: "wrong"))
            #expect(refused.error == "AuthRequired", "\(refused.body)")
            try await Waiting.until("the gateway to log the refusal: \(gateway.errors)", timeout: .seconds(30)) {
                gateway.errors.contains("AuthRequired")
            }
            // Ctrl-C, as a person stops it: its "Cancelling…" is a record too.
            #expect(await gateway.stop(SIGINT) == 0, "\(gateway.output)")

            let records = try Self.records(gateway.errors)
            let messages = records.compactMap { $0["message"] as? String }
            #expect(messages.contains { $0.hasPrefix("Tightened permissions of \(world.home.path)") }, "\(messages)")
            #expect(messages.contains { $0.hasPrefix("The gateway token is in \(gateway.tokenFile.path)") })
            #expect(messages.contains("Cancelling…"), "\(messages)")
            #expect(records.contains { $0["error"] as? String == "AuthRequired" }, "\(gateway.errors)")
            #expect(records.contains { $0["level"] as? String == "debug" }, "-v's records are JSON too")
            #expect(!gateway.errors.contains(token), "no record holds the token")
            // Numbers stay numbers, so `jq 'select(.status >= 500)'` compares numbers, as docs/cli.md shows.
            let requests = records.filter { $0["message"] as? String == "request" }
            #expect(Set(requests.compactMap { $0["status"] as? Int }) == [200, 401], "\(requests)")
            #expect(requests.allSatisfy { $0["duration_ms"] as? Double != nil }, "\(requests)")
        }
    }

    @Test("with --json every line the sandbox writes on stderr is a JSON object, rejections with their reason")
    func sandboxLogIsJSON() async throws {
        let executable = try #require(CLIProcess.executable, "build the atoauth executable first (swift build)")
        let (process, stdout, stderr, pipes) = try DrainedPipes.start(
            executable,
            arguments: ["sandbox", "--json", "-v", "--auto-approve"],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        )
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let settings = try await process.awaitStart(
            "the sandbox's settings line",
            failure: SandboxStartFailure(output: stdout.text + stderr.text)
        ) { (try? JSONSerialization.jsonObject(with: Data(stdout.text.utf8))) as? [String: Any] }
        let plc = try #require(settings["plcDirectory"] as? String)
        let lookup = try await CLIProcess.run(
            ["-sS", "-o", "/dev/null", "-w", "%{http_code}", plc + "/not-a-did"],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            executable: URL(fileURLWithPath: "/usr/bin/curl")
        )
        #expect(lookup.stdout == "404", "\(lookup.stderr)")
        try await Waiting.until("the sandbox to log the rejection: \(stderr.text)", timeout: .seconds(30)) {
            stderr.text.contains("not a did:plc DID")
        }
        #expect(await process.stop(SIGINT, within: .seconds(10)), "the sandbox stops on Ctrl-C")
        await Waiting.atMost(.seconds(5)) { pipes.allDrained }

        let records = try Self.records(stderr.text)
        #expect(records.contains { ($0["message"] as? String)?.hasPrefix("sandbox started") == true })
        #expect(records.contains { $0["reason"] != nil && ($0["message"] as? String)?.hasPrefix("rejected") == true })
        #expect(records.contains { $0["message"] as? String == "Cancelling…" }, "\(stderr.text)")
        #expect(!records.contains { $0["level"] as? String == "error" }, "a stop is no error: \(stderr.text)")
    }

    /// The JSON on stdout: an array's objects, or the one object.
    static func objects(_ result: CLIProcess.Result) throws -> [[String: Any]] {
        #expect(result.status == 0, "\(result.stderr)")
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require((value as? [[String: Any]]) ?? (value as? [String: Any]).map { [$0] })
    }

    /// Every line of `text` as a log record: a JSON object with a `time`, a `level` and a `message`.
    static func records(_ text: String) throws -> [[String: Any]] {
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty)
        return try lines.map { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let record = try #require(object, "not a JSON object: \(line)")
            #expect(record["time"] is String && record["level"] is String && record["message"] is String, "\(line)")
            return record
        }
    }
}
