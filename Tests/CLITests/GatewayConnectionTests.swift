import ATOAuthTesting
import Foundation
import Testing

@Suite("atoauth gateway keeps no call waiting for a connection to the PDS")
struct GatewayConnectionTests {
    @Test("ten slow uploads at once all reach the PDS, and a read made meanwhile is answered")
    func slowUploadsDoNotQueue() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world)
            let getSession = "/xrpc/com.atproto.server.getSession"
            // A first call learns the PDS's DPoP nonce, so that no upload is challenged and sent again.
            #expect(CurlAnswer(try await gateway.curl(getSession, token: try gateway.token())).status == 200)
            let before = try await world.sandbox.counters()
            // Each upload is sent on as it arrives, in 24 pieces half a second apart, so each holds a connection to
            // the PDS for 12 seconds: more than an HTTP client's usual 8 connections per host.
            let uploads = try (0..<10).map { _ in
                try GatewayCommandTests.python(started: [
                    "slow-upload", gateway.address, gateway.tokenFile.path, String(3 << 20), "24", "0.5",
                ])
            }
            var reached = 0
            try await Waiting.until("all \(uploads.count) uploads to reach the PDS, or one to end") {
                reached = try await world.sandbox.counters().xrpcRequestHeadsReceived - before.xrpcRequestHeadsReceived
                return reached >= uploads.count || !uploads.allSatisfy(\.process.isRunning)
            }
            #expect(reached >= uploads.count, "only \(reached) uploads reached the PDS before the first ended")
            let session = CurlAnswer(try await gateway.curl(getSession, ["-m", "5"], token: try gateway.token()))
            #expect(session.status == 200, "\(session.body)")
            let allStillSending = uploads.allSatisfy { $0.process.isRunning }
            #expect(allStillSending, "the read was answered only once an upload had ended")
            for upload in uploads {
                let result = try GatewayCommandTests.parsed(try await GatewayCommandTests.output(of: upload))
                #expect(result["status"] as? Int == 200, "\(result)")
            }
            #expect(try await world.sandbox.counters().blobsStored == before.blobsStored + uploads.count)
        }
    }

    @Test("the open-file limit is raised to what --max-concurrent needs, and a hard limit below it is named")
    func openFileLimit() async throws {
        try await CLIWorld.with { world in
            let executable = try #require(CLIProcess.executable)
            let tokenFile = world.directory.appendingPathComponent("gateway-token")
            // 100 calls in flight may need 3 × 100 + 256 = 556 files; the soft limit starts at 256, the hard at 400.
            let gateway = try CLIProcess.start(
                [
                    "-c", "ulimit -Sn 256 && ulimit -Hn 400 && exec \"$0\" \"$@\"", executable.path, "gateway",
                    "--listen", "127.0.0.1:0", "--token-file", tokenFile.path, "--max-concurrent", "100",
                ],
                environment: world.environment,
                executable: URL(fileURLWithPath: "/bin/bash")
            )
            let said = try await gateway.waitForStderr(containing: "listening address=")
            #expect(
                said.contains("may open 400 files, fewer than the 556 that --max-concurrent 100 can need"),
                "\(said)"
            )
            // (400 − 64) / 3 = 112 connections, and the 100 requests asked for.
            #expect(said.contains("so it takes at most 112 connections and 100 requests at once"), "\(said)")
            let limits = try String(
                contentsOfFile: "/proc/\(gateway.process.processIdentifier)/limits",
                encoding: .utf8
            )
            let openFiles = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }
            #expect(openFiles?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "400")
            kill(gateway.process.processIdentifier, SIGTERM)
            #expect(try await gateway.finish().status == 0)
        }
    }
}
