import ATOAuthTesting
import Foundation
import Testing

/// `--request-timeout` and `ATOAUTH_REQUEST_TIMEOUT`: how long one HTTP request may take.
@Suite("The request time limit, through the CLI as a process", .serialized)
struct RequestTimeoutTests {
    @Test("a server slower than --request-timeout fails with the limit named and how to raise it; a longer limit waits")
    func slowServer() async throws {
        let slow: LoopbackHTTPServer.Handler = { _ in
            try? await Task.sleep(for: .seconds(2))  // A slow server on purpose: slower than 1 s, faster than 60 s.
            return .json(#"{"ok":true}"#)
        }
        try await CLIWorld.withScriptedPDS(slow) { world, _ in
            let short = try await world.atoauth("xrpc", "com.example.slow.get", "--request-timeout", "1")
            #expect(short.status == 1, "\(short.stderr)")
            #expect(short.stderr.contains("Timed out after 1 s"), "\(short.stderr)")
            #expect(short.stderr.contains("--request-timeout SECONDS (or ATOAUTH_REQUEST_TIMEOUT"), "\(short.stderr)")

            let patient = try await world.atoauth(
                "xrpc",
                "com.example.slow.get",
                extraEnvironment: ["ATOAUTH_REQUEST_TIMEOUT": "60"]
            )
            #expect(patient.status == 0, "\(patient.stderr)")
        }
    }

    @Test(
        "a limit that is not a number of seconds from 1 to 3600 is a usage error naming where it came from",
        arguments: [(["--request-timeout", "0"], [:]), ([], ["ATOAUTH_REQUEST_TIMEOUT": "soon"])]
    )
    func badLimit(arguments: [String], environment: [String: String]) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(["whoami"] + arguments, extraEnvironment: environment)
            #expect(result.status == 2, "\(result.stderr)")
            let source = arguments.isEmpty ? "ATOAUTH_REQUEST_TIMEOUT" : "--request-timeout"
            #expect(result.stderr.contains("\(source) must be a number of seconds from 1 to 3600"), "\(result.stderr)")
        }
    }
}
