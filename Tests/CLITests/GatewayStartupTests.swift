import ATOAuthTesting
import Foundation
import Testing

/// The start-up token file is one gateway's for its lifetime (issue #34 item 4).
@Suite("atoauth gateway's token file: written once it listens, held while it runs, removed when it stops")
struct GatewayStartupTests {
    static let getSession = "/xrpc/com.atproto.server.getSession"

    @Test("a second gateway on the same token file exits 1 naming the first; the first's clients keep working")
    func secondGateway() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let first = try await GatewayProcess(in: world)
            let token = try first.token()
            let second = try await world.atoauth(
                "gateway",
                "--token-file",
                first.tokenFile.path,
                "--listen",
                "127.0.0.1:0"
            )
            #expect(second.status == 1, "\(second.stderr)")
            #expect(second.stderr.contains("PID \(first.process.processIdentifier)"), "\(second.stderr)")
            #expect(second.stderr.contains(first.address), "\(second.stderr)")
            #expect(!second.stderr.contains(token))
            #expect(try first.token() == token, "the second gateway replaced the first one's token")
            #expect(CurlAnswer(try await first.curl(Self.getSession, token: token)).status == 200)

            // A gateway that cannot listen writes no token at all.
            let unused = world.directory.appendingPathComponent("unused-token")
            let taken = try await world.atoauth(
                "gateway",
                "--token-file",
                unused.path,
                "--listen",
                "127.0.0.1:\(try #require(first.port))"
            )
            #expect(taken.status == 1, "\(taken.stderr)")
            #expect(!FileManager.default.fileExists(atPath: unused.path))

            #expect(await first.stop() == 0)
            #expect(!FileManager.default.fileExists(atPath: first.tokenFile.path), "the token outlived its gateway")
            #expect(!FileManager.default.fileExists(atPath: first.tokenFile.path + ".lock"))
            let third = try await GatewayProcess(in: world, tokenFile: first.tokenFile)
            #expect(try third.token() != token)
            #expect(await third.stop() == 0)
        }
    }

    @Test("--print-env prints two lines a shell evals and Python reads, and curl and Python call the gateway with them")
    func printEnv() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world, ["--print-env"])
            try await Waiting.until("both lines of --print-env") {
                gateway.printed.contains("ATOAUTH_GATEWAY_TOKEN_FILE=") && gateway.printed.hasSuffix("\n")
            }
            let lines = gateway.printed.split(separator: "\n")
            #expect(
                lines == [
                    "ATOAUTH_GATEWAY_URL=\(gateway.address)", "ATOAUTH_GATEWAY_TOKEN_FILE=\(gateway.tokenFile.path)",
                ]
            )
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            let shell = try await CLIProcess.run(
                [
                    "-c",
                    #"eval "$GATEWAY_ENV" && curl -sS -o /dev/null -w '%{http_code}' "#
                        + #"-H "Authorization: Bearer $(cat "$ATOAUTH_GATEWAY_TOKEN_FILE")" "#
                        + #""$ATOAUTH_GATEWAY_URL/xrpc/com.atproto.server.getSession""#,
                ],
                environment: ["PATH": path, "GATEWAY_ENV": gateway.printed],
                executable: URL(fileURLWithPath: "/bin/sh")
            )
            #expect(shell.stdout == "200", "\(shell.stderr)")
            let python = try await CLIProcess.run(
                [
                    "-c",
                    """
                    import os, pathlib, urllib.request
                    token = pathlib.Path(os.environ["ATOAUTH_GATEWAY_TOKEN_FILE"]).read_text().strip()
                    url = os.environ["ATOAUTH_GATEWAY_URL"] + "/xrpc/com.atproto.server.getSession"
                    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
                    print(urllib.request.urlopen(request).status)
                    """,
                ],
                environment: world.environment.merging(
                    ["ATOAUTH_GATEWAY_URL": gateway.address, "ATOAUTH_GATEWAY_TOKEN_FILE": gateway.tokenFile.path]
                ) { $1 },
                executable: URL(fileURLWithPath: "/usr/bin/python3")
            )
            #expect(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "200", "\(python.stderr)")
            #expect(await gateway.stop() == 0)
        }
    }
}
