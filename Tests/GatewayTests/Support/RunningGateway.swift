import ATOAuthTesting
import AccountManager
import Foundation
import Gateway
import HTTPTransport

/// A gateway over `accounts` run in a task for one test, on 127.0.0.1 and a port the system chose, with a new token
/// and a spool directory of its own.
enum RunningGateway {
    /// The gateway listened on something other than TCP.
    struct NotOnTCP: Error {}

    /// A configuration for a test: loopback, any free port, a new token, a new spool directory.
    static func configuration(spool: URL) -> GatewayConfiguration {
        GatewayConfiguration(
            listen: .tcp(host: "127.0.0.1", port: 0),
            token: GatewayToken.generate(),
            spoolDirectory: spool
        )
    }

    /// A spool directory of one test's own.
    static func spoolDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gateway-spool-\(UUID().uuidString)")
    }

    /// Runs a gateway, gives `body` a client of it, and stops it on every path.
    static func with<T>(
        _ accounts: AccountManager,
        transport: any HTTPTransport,
        configure: (inout GatewayConfiguration) -> Void = { _ in },
        _ body: (GatewayClient) async throws -> T
    ) async throws -> T {
        let spool = spoolDirectory()
        defer { try? FileManager.default.removeItem(at: spool) }
        var configuration = RunningGateway.configuration(spool: spool)
        configure(&configuration)
        let server = try GatewayServer(configuration: configuration, accounts: accounts)
        let task = Task { try await server.run() }
        do {
            guard case .tcp(_, let port) = try await server.boundAddress() else { throw NotOnTCP() }
            let result = try await body(GatewayClient(port: port, token: configuration.token, transport: transport))
            task.cancel()
            _ = try? await task.value
            return result
        } catch {
            task.cancel()
            _ = try? await task.value
            throw error
        }
    }

    /// Runs a gateway over a sandbox world's accounts with alice.test signed in and active, and gives `body` the
    /// world and a client of the gateway.
    static func withSignedIn<T>(
        configure: (inout GatewayConfiguration) -> Void = { _ in },
        body: (SandboxWorld, GatewayClient) async throws -> T
    ) async throws -> T {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            _ = try await world.signIn(with: accounts)
            return try await RunningGateway.with(accounts, transport: world.transport, configure: configure) {
                try await body(world, $0)
            }
        }
    }
}
