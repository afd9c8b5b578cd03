import ATOAuthTesting
import AccountManager
import Foundation
import Gateway
import HTTPTransport
import Logging
import ServiceLifecycle
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Starting and stopping")
struct LifecycleTests {
    @Test("a graceful shutdown lets the request in flight finish, then the gateway stops")
    func gracefulShutdown() async throws {
        let slow = ScriptedResponse(
            status: 200,
            headers: [("Content-Type", "application/json")],
            body: Data(#"{"ok":true}"#.utf8),
            delay: .milliseconds(700)
        )
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(slow)) { pds in
            try await SandboxWorld.with { world in
                let (accounts, _) = try await narrowedSession(
                    world,
                    scope: "atproto transition:generic",
                    pds: pds.url("/")
                )
                let client = try await Self.withServiceGroup(accounts, transport: world.transport) { client, group in
                    let call = Task { try await client.send("/xrpc/com.example.slow.get") }
                    try await Waiting.until("the call to reach the PDS") { !pds.requests.isEmpty }
                    #expect(pds.requests.count == 1)
                    await group.triggerGracefulShutdown()
                    let answer = try await call.value
                    #expect(answer.status == 200)
                }
                await #expect(throws: (any Error).self) { try await client.send("/_gateway/health", authorized: false) }
            }
        }
    }

    @Test("a request still waiting for the PDS when the grace runs out is answered 503 ShuttingDown; the gateway stops")
    func graceRunsOut() async throws {
        let blackhole = try await BlackholeListener.start()
        do {
            try await SandboxWorld.with { world in
                let (accounts, _) = try await narrowedSession(
                    world,
                    scope: "atproto transition:generic",
                    pds: URL(string: "http://127.0.0.1:\(blackhole.port)/")
                )
                _ = try await Self.withServiceGroup(
                    accounts,
                    transport: world.transport,
                    configure: { $0.shutdownGrace = .milliseconds(100) }
                ) { client, group in
                    let before = blackhole.hangingHandshakes
                    let call = Task { try await client.send("/xrpc/com.example.slow.get") }
                    try await Waiting.until("the call to hang connecting to the PDS") {
                        blackhole.hangingHandshakes > before
                    }
                    await group.triggerGracefulShutdown()
                    let answer = try await call.value
                    #expect(answer.status == 503)
                    #expect(try GatewayClient.errorName(answer) == "ShuttingDown")
                    #expect(answer.headers["Retry-After"] == "1")
                }
                // Closed before the world's transport shuts down, which waits for the connect the gateway abandoned.
                await blackhole.shutdown()
            }
        } catch {
            await blackhole.shutdown()
            throw error
        }
    }

    /// Runs a gateway of `accounts` in a service group of its own, as `atoauth gateway` runs it.
    ///
    /// `body` gets a client of it and the group, whose shutdown it triggers; once the group stopped, the client is
    /// returned. The group is stopped on every path.
    private static func withServiceGroup(
        _ accounts: AccountManager,
        transport: any HTTPTransport,
        configure: (inout GatewayConfiguration) -> Void = { _ in },
        _ body: (GatewayClient, ServiceGroup) async throws -> Void
    ) async throws -> GatewayClient {
        let spool = RunningGateway.spoolDirectory()
        defer { try? FileManager.default.removeItem(at: spool) }
        var configuration = RunningGateway.configuration(spool: spool)
        configure(&configuration)
        let gateway = try GatewayServer(configuration: configuration, accounts: accounts)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [gateway],
                logger: Logger(label: "gateway-tests") { _ in SwiftLogNoOpLogHandler() }
            )
        )
        let running = Task { try await group.run() }
        do {
            guard case .tcp(_, let port) = try await gateway.boundAddress() else {
                throw GatewayError.cannotListen("\(configuration.listen)", "the test gateway listens on TCP")
            }
            let client = GatewayClient(port: port, token: configuration.token, transport: transport)
            try await body(client, group)
            try await running.value
            return client
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
    }

    @Test("on a Unix socket the socket is 0600 while it listens and removed once it stops")
    func unixSocket() async throws {
        try await SandboxWorld.with { world in
            let spool = RunningGateway.spoolDirectory()
            defer { try? FileManager.default.removeItem(at: spool) }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "gw-\(UInt32.random(in: 0...UInt32.max)).sock"
            ).path
            var configuration = RunningGateway.configuration(spool: spool)
            configuration.listen = .unixSocket(path: path)
            let gateway = try GatewayServer(configuration: configuration, accounts: world.accounts())
            let task = Task { try await gateway.run() }
            #expect(try await gateway.boundAddress() == .unixSocket(path: path))
            var status = stat()
            #expect(lstat(path, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
            task.cancel()
            _ = try? await task.value
            #expect(lstat(path, &status) != 0, "the socket is removed")
        }
    }

    @Test("a second gateway on a port in use fails with addressInUse, naming the port")
    func portInUse() async throws {
        try await SandboxWorld.with { world in
            try await RunningGateway.with(world.accounts(), transport: world.transport) { first in
                let spool = RunningGateway.spoolDirectory()
                defer { try? FileManager.default.removeItem(at: spool) }
                var configuration = RunningGateway.configuration(spool: spool)
                configuration.listen = .tcp(host: "127.0.0.1", port: first.port)
                let second = try GatewayServer(configuration: configuration, accounts: world.accounts())
                let error = await #expect(throws: GatewayError.self) { try await second.run() }
                #expect(error?.code == .addressInUse)
                await #expect(throws: GatewayError.self) { try await second.boundAddress() }
            }
        }
    }
}
