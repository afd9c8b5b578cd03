import ATOAuthTesting
import Foundation
import Testing

@Suite("Ctrl-C ends every command with exit 130, whatever it was waiting for")
struct InterruptTests {
    @Test("Ctrl-C while a connection hangs exits 130, not with the cut-off request's error")
    func connectionHangs() async throws {
        let blackhole = try await BlackholeListener.start()
        try await CLIWorld.with { world in
            let running = try CLIProcess.start(
                ["accounts", "add", "http://127.0.0.1:\(blackhole.port)", "--no-browser"],
                environment: world.environment
            )
            try await Waiting.until("the sign-in's handshake to hang") { blackhole.hangingHandshakes > 0 }
            try await Self.interrupt(running)
            let result = try await running.finish(timeout: .seconds(30))
            #expect(result.status == 130, "\(result.stderr)")
            #expect(result.stderr.contains("Cancelled"))
            #expect(!result.stderr.contains("Timed out"))
        }
        await blackhole.shutdown()
    }

    @Test("Ctrl-C at the app-password prompt exits 130, not as a missing password")
    func passwordPrompt() async throws {
        try await CLIWorld.with { world in
            let did = try #require(world.did("alice.test"))
            let running = try CLIProcess.start(
                ["accounts", "add", did, "--app-password"],
                environment: world.environment,
                keepStdinOpen: true
            )
            // On a pipe no prompt shows when the password is read: cancelled before or during the read, the command
            // must end the same way.
            try await Self.interrupt(running)
            let result = try await running.finish(timeout: .seconds(30))
            #expect(result.status == 130, "\(result.stderr)")
            #expect(!result.stderr.contains("No app password was given"))
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })
        }
    }

    @Test("Ctrl-C after a procedure reached the PDS says it may have been carried out, not that nothing was stored")
    func procedureSent() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let before = try await world.sandbox.counters().xrpcRequestHeadsReceived
            try await world.sandbox.configure(#"{"slowResponses": 60}"#)
            let running = try CLIProcess.start(
                [
                    "xrpc", "com.atproto.repo.createRecord", "--json", "--input",
                    #"{"repo":"alice.test","collection":"app.bsky.feed.post","record":{"text":"once"}}"#,
                ],
                environment: world.environment
            )
            try await Waiting.until("the procedure to reach the PDS") {
                try await world.sandbox.counters().xrpcRequestHeadsReceived > before
            }
            try await Self.interrupt(running)
            let result = try await running.finish(timeout: .seconds(30))
            try await world.sandbox.configure(#"{"slowResponses": 0}"#)
            #expect(result.status == 130, "\(result.stderr)")
            #expect(result.stderr.contains("may already have reached the PDS"), "\(result.stderr)")
            #expect(!result.stderr.contains("nothing was stored"), "\(result.stderr)")
        }
    }

    /// Sends SIGINT once the process handles it.
    ///
    /// atoauth's Dispatch signal source catches SIGINT from the moment it is registered (`SigCgt` in
    /// `/proc/<pid>/status`); before that the signal would kill the process. A test first waits for the command to reach
    /// its wait where that can be seen (a hanging handshake).
    private static func interrupt(_ running: CLIProcess.Running) async throws {
        let status = "/proc/\(running.process.processIdentifier)/status"
        try await Waiting.until("atoauth to catch SIGINT") {
            try #require(running.process.isRunning, "atoauth ended before it caught SIGINT")
            return Self.catchesInterrupt(status)
        }
        running.signal(SIGINT)
    }

    /// Whether the `SigCgt` (caught signals) mask of a `/proc/<pid>/status` file has SIGINT.
    private static func catchesInterrupt(_ statusFile: String) -> Bool {
        guard let text = try? String(contentsOfFile: statusFile, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(SIGINT - 1)) != 0
    }
}
