import DPoPRequestExecutor
import Foundation
import Keystore
import Logging
import OAuthSessionManager
import Sandbox
import Synchronization
import Testing

/// A running sandbox, a real transport and a session manager wired to them, for flow tests.
struct SandboxFlow: Sendable {
    let server: SandboxServer
    let endpoints: SandboxEndpoints
    let transport: AsyncHTTPClientTransport
    let keystore: InMemoryKeystore
    let clock: FlowClock

    /// A manager over this world's keystore; several managers model several processes sharing one store.
    func manager() -> OAuthSessionManager {
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

    /// A loopback client whose redirect goes to a port nobody listens on: tests read the redirect themselves.
    func client() throws -> OAuthClient {
        try OAuthClient.loopback(redirectURI: try #require(URL(string: "http://127.0.0.1:9/callback")))
    }

    /// Plays the browser: opens the authorization URL and returns where the sandbox redirects (the callback URL).
    func approve(_ request: AuthorizationRequest) async throws -> URL {
        let response = try await transport.send(HTTPRequest(url: request.url))
        #expect(response.status == 302)
        return try #require(response.headers["Location"].flatMap(URL.init(string:)))
    }

    /// Signs in from start to finish.
    func signIn(_ handle: String = "alice.test", with manager: OAuthSessionManager) async throws -> OAuthSession {
        let request = try await manager.startSignIn(handle, client: try client())
        return try await manager.completeSignIn(callbackURL: try await approve(request))
    }

    static func with<T>(
        _ configuration: SandboxConfiguration = SandboxConfiguration(autoApprove: true),
        _ body: (SandboxFlow) async throws -> T
    ) async throws -> T {
        let clock = FlowClock()
        let server = SandboxServer(
            configuration: configuration,
            logger: Logger(label: "sandbox") { _ in SwiftLogNoOpLogHandler() },
            now: { clock.now() }
        )
        let endpoints = try await server.start()
        do {
            let result = try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(
                    SandboxFlow(
                        server: server,
                        endpoints: endpoints,
                        transport: transport,
                        keystore: InMemoryKeystore(),
                        clock: clock
                    )
                )
            }
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// Real time plus an offset shared by the sandbox and the client, moved forward to expire things.
final class FlowClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
