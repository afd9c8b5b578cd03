import DPoPRequestExecutor
import Foundation
import Keystore
import Logging
import OAuthSessionManager
import Sandbox

/// The strict sandbox running in this process, a real transport, and a clock both share.
struct SandboxWorld: Sendable {
    /// The sandbox.
    let server: SandboxServer
    /// Its three origins.
    let endpoints: SandboxEndpoints
    /// The production transport.
    let transport: AsyncHTTPClientTransport
    /// The clock of the sandbox and of every client made here.
    let clock: BenchClock

    /// Starts a sandbox with `configuration`, runs `body`, and stops everything on every path.
    static func with<T: Sendable>(
        _ configuration: SandboxConfiguration,
        _ body: (SandboxWorld) async throws -> T
    ) async throws -> T {
        let clock = BenchClock()
        let server = SandboxServer(
            configuration: configuration,
            logger: Logger(label: "atoauth-bench.sandbox") { _ in SwiftLogNoOpLogHandler() },
            now: { clock.now() }
        )
        let endpoints = try await server.start()
        do {
            let result = try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(SandboxWorld(server: server, endpoints: endpoints, transport: transport, clock: clock))
            }
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A session manager over `keystore` that talks to this sandbox, on this world's clock.
    func manager(keystore: any Keystore) -> OAuthSessionManager {
        OAuthSessionManager(
            keystore: keystore,
            transport: transport,
            identity: IdentityResolver.Configuration(
                plcDirectory: endpoints.plcDirectory,
                handleResolverService: endpoints.pds
            ),
            allowHTTPLoopback: true,
            now: { [clock] in clock.now() }
        )
    }

    /// Signs `handle` in from start to finish, playing the browser that approves (the sandbox auto-approves).
    func signIn(_ handle: String = "alice.test", with manager: OAuthSessionManager) async throws -> OAuthSession {
        guard let redirect = URL(string: "http://127.0.0.1:9/callback") else { throw BenchError("bad redirect") }
        let request = try await manager.startSignIn(handle, client: try OAuthClient.loopback(redirectURI: redirect))
        let approval = try await transport.send(HTTPRequest(url: request.url))
        guard approval.status == 302, let callback = approval.headers["Location"].flatMap(URL.init(string:)) else {
            throw BenchError("the sandbox did not approve the sign-in (HTTP \(approval.status))")
        }
        return try await manager.completeSignIn(callbackURL: callback)
    }
}
