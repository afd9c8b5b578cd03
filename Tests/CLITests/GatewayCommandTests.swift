import ATOAuthTesting
import Foundation
import Testing

@Suite("atoauth gateway, called from curl and Python as separate processes")
struct GatewayCommandTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("gateway_client.py")

    /// Runs the Python client (standard library only) with `arguments`; its one line of JSON.
    static func python(_ arguments: [String]) async throws -> [String: Any] {
        try parsed(try await pythonOutput(arguments))
    }

    /// The Python client's line of JSON, read.
    static func parsed(_ output: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    }

    /// Starts the Python client with `arguments`, to watch it while it runs.
    static func python(started arguments: [String], keepStdinOpen: Bool = false) throws -> CLIProcess.Running {
        try CLIProcess.start(
            ["python3", client.path] + arguments,
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            keepStdinOpen: keepStdinOpen
        )
    }

    /// Starts an 8 MiB upload in eight pieces that stops after four, until the test lets it go on
    /// (`CLIProcess.Running.write`), and returns once it is held.
    static func heldUpload(through gateway: GatewayProcess) async throws -> CLIProcess.Running {
        let upload = try python(
            started: ["slow-upload", gateway.address, gateway.tokenFile.path, String(8 << 20), "8", "0", "4"],
            keepStdinOpen: true
        )
        try await upload.waitForStderr(containing: "held")
        return upload
    }

    /// Runs the Python client with `arguments`; what it printed.
    static func pythonOutput(_ arguments: [String]) async throws -> Data {
        try await output(of: try python(started: arguments))
    }

    /// What a started Python client printed, once it ended successfully.
    static func output(of python: CLIProcess.Running) async throws -> Data {
        let result = try await python.finish(timeout: .seconds(120))
        #expect(result.status == 0, "\(result.stderr)")
        return Data(result.stdout.utf8)
    }

    @Test("curl: health needs no token; a call without or with a wrong token is 401; the right one goes through")
    func tokens() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world)
            let token = try gateway.token()
            #expect(token.count >= 43)
            #expect(!gateway.output.contains(token))
            let mode = try FileManager.default.attributesOfItem(atPath: gateway.tokenFile.path)[.posixPermissions]
            #expect((mode as? NSNumber)?.intValue == 0o600)

            let health = CurlAnswer(try await gateway.curl("/_gateway/health"))
            #expect(health.status == 200 && health.body == #"{"status":"ok"}"#)
            let none = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.server.getSession"))
            #expect(none.status == 401 && none.error == "AuthRequired")
            let wrong = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.server.getSession", token: "x" + token))
            #expect(wrong.status == 401 && wrong.error == "AuthRequired")
            let session = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.server.getSession", token: token))
            #expect(session.status == 200, "\(session.body)")
            #expect(session.body.contains(try #require(world.did("alice.test"))))
            let metrics = CurlAnswer(try await gateway.curl("/_gateway/metrics", token: token))
            #expect(metrics.status == 200 && metrics.body.contains("atoauth_gateway_requests_total"))
            #expect(!metrics.body.contains(try #require(world.did("alice.test"))))
            #expect(await gateway.stop() == 0)
            #expect(!gateway.output.contains(token))
        }
    }

    @Test("curl: a rebinding Host and a browser's Origin are 403; a body over --max-body is 413")
    func refusals() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world, ["--max-body", "1024"])
            let token = try gateway.token()
            let path = "/xrpc/com.atproto.server.getSession"
            let rebound = CurlAnswer(try await gateway.curl(path, ["-H", "Host: attacker.example"], token: token))
            #expect(rebound.status == 403 && rebound.error == "Forbidden")
            let origin = CurlAnswer(
                try await gateway.curl(path, ["-H", "Origin: https://attacker.example"], token: token)
            )
            #expect(origin.status == 403 && origin.error == "Forbidden")
            let large = CurlAnswer(
                try await gateway.curl(
                    "/xrpc/com.atproto.repo.uploadBlob",
                    [
                        "-H", "Content-Type: application/octet-stream", "--data-binary",
                        String(repeating: "x", count: 2048),
                    ],
                    token: token
                )
            )
            #expect(large.status == 413 && large.error == "PayloadTooLarge")
            let unknown = CurlAnswer(
                try await gateway.curl(path, ["-H", "atoauth-account: nobody.test"], token: token)
            )
            #expect(unknown.status == 403 && unknown.error == "AccountNotSignedIn")
        }
    }

    @Test("Python's standard library: records created and read page by page; a 20 MiB blob up and down whole")
    func python() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world)
            let did = try #require(world.did("alice.test"))
            let records = try await Self.python(["records", gateway.address, gateway.tokenFile.path, did])
            let created = try #require(records["created"] as? [String], "\(records)")
            #expect(created.count == 5)
            #expect(Set(try #require(records["listed"] as? [String])) == Set(created))
            #expect(records["pages"] as? Int == 3)

            let blob = try await Self.python(["blob", gateway.address, gateway.tokenFile.path, String(20 << 20)])
            #expect(blob["status"] as? Int == 200, "\(blob)")
            #expect(blob["size"] as? Int == 20 << 20)
            #expect(blob["sent"] as? String == blob["received"] as? String)
            #expect(blob["contentType"] as? String == "application/octet-stream")
            // Streamed both ways, the gateway never holds a whole blob: after a 20 MiB round trip, a 60 MiB one
            // carries 40 MiB more, and a gateway that held either body whole would raise its peak memory by at least
            // that much. (Measured here: 8–22 MiB, the allocator's and the event loops' buffers.)
            let afterFirst = try gateway.peakMemory()
            let larger = try await Self.python(["blob", gateway.address, gateway.tokenFile.path, String(60 << 20)])
            #expect(larger["status"] as? Int == 200, "\(larger)")
            #expect(larger["sent"] as? String == larger["received"] as? String)
            let grown = try gateway.peakMemory() - afterFirst
            #expect(grown < 30 << 20, "a 60 MiB blob raised the gateway's peak memory by \(grown) bytes")
        }
    }

    @Test("two gateways on one store, 1,000 concurrent calls on an expired token: one refresh, no replay")
    func refreshStorm() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await world.signIn("alice.test")
            try await world.sandbox.expireAccessTokens()
            let gateways = [
                try await GatewayProcess(in: world, ["--max-concurrent", "1000"]),
                try await GatewayProcess(in: world, ["--max-concurrent", "1000"]),
            ]
            let results = try await withThrowingTaskGroup(of: CLIProcess.Result.self) { group in
                for gateway in gateways {
                    let token = try gateway.token()
                    let urls = (0..<500).flatMap { _ in
                        ["-o", "/dev/null", gateway.address + "/xrpc/com.atproto.server.getSession"]
                    }
                    group.addTask {
                        try await CLIProcess.run(
                            [
                                "-sS", "-Z", "--parallel-max", "250", "-w", "%{http_code}\n", "-H",
                                "Authorization: Bearer \(token)",
                            ]
                                + urls,
                            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
                            executable: URL(fileURLWithPath: "/usr/bin/curl"),
                            timeout: .seconds(120)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let codes = results.flatMap { $0.stdout.split(separator: "\n") }
            #expect(codes.count == 1000)
            #expect(codes.allSatisfy { $0 == "200" }, "\(Dictionary(grouping: codes, by: { $0 }).mapValues(\.count))")
            let counters = try await world.sandbox.counters()
            #expect(counters.refreshGrantsSucceeded == 1)
            #expect(counters.refreshTokenReplays == 0)
        }
    }

    @Test("SIGTERM during an upload: the upload in flight finishes whole, then the gateway exits 0")
    func sigtermDuringUpload() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world)
            let upload = Task {
                try await Self.pythonOutput([
                    "slow-upload", gateway.address, gateway.tokenFile.path, String(8 << 20), "8", "0.25",
                ])
            }
            try await gateway.waitUntilInFlight()
            let status = await gateway.stop()
            let result = try Self.parsed(try await upload.value)
            #expect(result["status"] as? Int == 200, "\(result) \(gateway.output)")
            let blob = try #require((result["body"] as? [String: Any])?["blob"] as? [String: Any])
            #expect(blob["size"] as? Int == 8 << 20)
            #expect(status == 0)
        }
    }

    @Test("SIGTERM with a short grace: an unfinished upload fails, and the PDS stores nothing of it")
    func sigtermCutsUpload() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world, ["--shutdown-grace", "1"])
            let before = try await world.sandbox.counters()
            // Half sent, and held there past the grace: the gateway cannot finish it before it stops.
            let upload = try await Self.heldUpload(through: gateway)
            try await gateway.waitUntilInFlight()
            #expect(await gateway.stop() == 0)
            upload.write("go on\n")
            let result = try Self.parsed(try await Self.output(of: upload))
            #expect(result["status"] as? Int != 200, "\(result)")
            // The PDS got the start of the body as it arrived, then the connection ended short of its length.
            let after = try await world.sandbox.counters()
            #expect(after.blobsStored == before.blobsStored)
            #expect(after.xrpcRequestsReceived <= before.xrpcRequestsReceived + 1)
        }
    }

    @Test("a large upload is sent on as it arrives: the PDS has the request while the client is still sending")
    func uploadStreamsThrough() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let gateway = try await GatewayProcess(in: world)
            let before = try await world.sandbox.counters()
            // Held after half its body: a gateway that read bodies whole first would never let the PDS hear of it.
            let upload = try await Self.heldUpload(through: gateway)
            try await Waiting.until("the half-sent upload's head to reach the PDS") {
                try await world.sandbox.counters().xrpcRequestHeadsReceived > before.xrpcRequestHeadsReceived
            }
            upload.write("go on\n")
            let result = try Self.parsed(try await Self.output(of: upload))
            #expect(result["status"] as? Int == 200, "\(result) \(gateway.output)")
            let blob = try #require((result["body"] as? [String: Any])?["blob"] as? [String: Any])
            #expect(blob["size"] as? Int == 8 << 20)
            #expect(try await world.sandbox.counters().blobsStored == before.blobsStored + 1)
        }
    }

    @Test("a Unix socket: mode 0600, and curl calls through it")
    func unixSocket() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let socket = world.directory.appendingPathComponent("gateway.sock")
            let gateway = try await GatewayProcess(in: world, ["--socket", socket.path])
            #expect(gateway.address == "unix:\(socket.path)")
            let mode = try FileManager.default.attributesOfItem(atPath: socket.path)[.posixPermissions]
            #expect((mode as? NSNumber)?.intValue == 0o600)
            let session = CurlAnswer(
                try await gateway.curl("/xrpc/com.atproto.server.getSession", token: try gateway.token())
            )
            #expect(session.status == 200, "\(session.body)")
        }
    }
}
