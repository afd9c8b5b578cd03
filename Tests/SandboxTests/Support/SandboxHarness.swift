import ATOAuthTesting
import Foundation
import HTTPTransport
import InMemoryLogging
import Logging
import Sandbox

/// A started sandbox with a clock that stands still until the test moves it, a captured log and the production
/// transport; made by ``withSandbox(_:_:)``.
struct SandboxHarness: Sendable {
    /// The sandbox, its transport and its clock.
    let world: SandboxWorld
    let log: InMemoryLogHandler

    var server: SandboxServer { world.server }
    var endpoints: SandboxEndpoints { world.endpoints }
    var clock: ShiftableClock { world.clock }
    var transport: AsyncHTTPClientTransport { world.transport }

    /// A new client with its own DPoP key, asking for `scope` at the PAR.
    func client(
        redirectURI: String = TestClientIdentity.redirectURI,
        clientID: String = TestClientIdentity.clientID,
        scope: String = TestClientIdentity.scope
    ) -> SandboxTestClient {
        SandboxTestClient(harness: self, clientID: clientID, redirectURI: redirectURI, scope: scope)
    }

    /// A new loopback client that registers `registered` in its `client_id` and asks for `scope` (by default the
    /// same).
    func client(registering registered: String, asking scope: String? = nil) -> SandboxTestClient {
        client(clientID: TestClientIdentity.clientID(scope: registered), scope: scope ?? registered)
    }

    /// The messages logged so far.
    var logMessages: [String] { log.entries.map { "\($0.message)" } }
}

/// Starts a sandbox on loopback with a clock frozen at the current time and a captured log, runs `body`, and stops
/// it whatever happens.
func withSandbox<T: Sendable>(
    _ configuration: SandboxConfiguration = SandboxConfiguration(autoApprove: true),
    _ body: (SandboxHarness) async throws -> T
) async throws -> T {
    let log = InMemoryLogHandler()
    return try await SandboxWorld.with(
        configuration,
        clock: ShiftableClock(frozenAt: Date()),
        logger: Logger(label: "sandbox-test") { _ in log }
    ) { world in
        try await body(SandboxHarness(world: world, log: log))
    }
}

/// The loopback client the tests sign in with.
enum TestClientIdentity {
    /// Registered without a port, so any port of the same path matches.
    static let registeredRedirectURI = "http://127.0.0.1/callback"
    /// The redirect URI sent, with a port.
    static let redirectURI = "http://127.0.0.1:54321/callback"
    static let scope = "atproto transition:generic"
    static let clientID = clientID(scope: scope)

    /// The loopback `client_id` that registers `scope`.
    static func clientID(scope: String) -> String {
        "http://localhost?redirect_uri=\(FormEscape.escape(registeredRedirectURI))&scope=\(FormEscape.escape(scope))"
    }
}

/// Percent-encoding for test forms.
enum FormEscape {
    static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func encode(_ parameters: [(String, String)]) -> Data {
        Data(parameters.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&").utf8)
    }
}
