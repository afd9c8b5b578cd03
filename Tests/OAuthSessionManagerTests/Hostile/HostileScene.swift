import ATOAuthTesting
import ATProtoIdentity
import Failures
import Foundation
import HTTPTransport
import Keystore
import OAuthMetadata
import OAuthSessionManager
import Testing

/// One sign-in against a ``HostileWorld``: the loopback server, the production transport (kept on loopback by
/// ``LoopbackOnlyTransport``), an in-memory keystore and the manager in development mode.
///
/// The test plays the browser: ``approve(_:)`` opens the authorization URL and reads the redirect back.
struct HostileScene: Sendable {
    let world: HostileWorld
    let server: LoopbackHTTPServer
    let transport: LoopbackOnlyTransport
    let keystore: InMemoryKeystore
    let manager: SessionManager
    let client: OAuthClient

    /// Limits that end a hung request within a minute yet never cut off an answer on a loaded 2-core machine:
    /// everything is on loopback and answers at once, so no scene waits for them.
    static let transportConfiguration = AsyncHTTPClientTransport.Configuration(
        connectTimeout: .seconds(30),
        totalTimeout: .seconds(60)
    )

    /// Starts the honest world, runs `body` with it, then checks that no request left loopback.
    ///
    /// `body` makes the world hostile with ``hostile(_:)`` before it starts signing in.
    static func run(allowHTTPLoopback: Bool = true, _ body: (HostileScene) async throws -> Void) async throws {
        let world = HostileWorld()
        let handler: LoopbackHTTPServer.Handler = { world.answer($0) }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            world.prepare(port: server.port)
            try await AsyncHTTPClientTransport.withTransport(configuration: transportConfiguration) { base in
                let transport = LoopbackOnlyTransport(base: base)
                let keystore = InMemoryKeystore()
                let manager = SessionManager(
                    keystore: keystore,
                    transport: transport,
                    identity: IdentityResolver.Configuration(
                        plcDirectory: server.baseURL,
                        handleResolverService: server.baseURL
                    ),
                    allowHTTPLoopback: allowHTTPLoopback
                )
                let client = try OAuthClient.loopback(redirectURI: server.url("/callback"))
                let scene = HostileScene(
                    world: world,
                    server: server,
                    transport: transport,
                    keystore: keystore,
                    manager: manager,
                    client: client
                )
                try await body(scene)
                #expect(transport.refusedURLs.isEmpty, "a request tried to leave loopback: \(transport.refusedURLs)")
            }
        }
    }

    /// `http://127.0.0.1:<port>`: alice's PDS and the issuer sign-in uses.
    var origin: String { "http://127.0.0.1:\(server.port)" }
    /// `http://localhost:<port>`: bob's PDS and another issuer.
    var otherOrigin: String { "http://localhost:\(server.port)" }

    /// Makes one piece of the world hostile from now on.
    func hostile(_ change: (inout HostileScript) -> Void) {
        world.update(change)
    }

    /// Starts a sign-in for `input` (alice's handle by default).
    func start(
        _ input: String = HostileScript.aliceHandle,
        prompt: SignInPrompt? = nil
    ) async throws -> AuthorizationRequest {
        try await manager.startSignIn(input, client: client, prompt: prompt)
    }

    /// Plays the browser: opens the authorization URL and returns where the server redirects it.
    func approve(_ request: AuthorizationRequest) async throws -> URL {
        let response = try await transport.send(HTTPRequest(method: .get, url: request.url))
        try #require(response.status == 302, "the authorize endpoint answered HTTP \(response.status)")
        let location = try #require(response.headers["Location"])
        return try #require(URL(string: location))
    }

    /// Starts, approves and completes a sign-in for `input`.
    func signIn(_ input: String = HostileScript.aliceHandle) async throws -> Session {
        let request = try await start(input)
        return try await manager.completeSignIn(callbackURL: try await approve(request)).session
    }

    /// A redirect back to the client with these query parameters, as an attacker or a broken server might send.
    func callback(_ parameters: [(String, String)]) throws -> URL {
        try #require(URL(string: "\(client.redirectURI.absoluteString)?\(HostileWorld.encode(parameters))"))
    }

    /// The requests the server received for `path`.
    func requests(to path: String) -> [RecordedRequest] {
        server.requests.filter { $0.path == path }
    }

    /// Expects the keystore to be empty: no session, no DPoP key, no pending sign-in.
    func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try keystore.names() == [], sourceLocation: sourceLocation)
    }

    /// Expects that no pushed authorization request was sent, so no sign-in could start.
    func expectNoPAR(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(requests(to: "/oauth/par").isEmpty, sourceLocation: sourceLocation)
    }

    /// Expects that no code was exchanged.
    func expectNoTokenRequest(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(requests(to: "/oauth/token").isEmpty, sourceLocation: sourceLocation)
    }

    /// Expects that the issuer revoked both tokens it issued, and that nothing else was revoked.
    func expectTokensRevoked(sourceLocation: SourceLocation = #_sourceLocation) {
        guard let tokens = world.script?.tokens else { return }
        let expected: Set = [
            HostileWorld.Revocation(origin: origin, token: tokens.refreshToken, hint: "refresh_token"),
            HostileWorld.Revocation(origin: origin, token: tokens.accessToken, hint: "access_token"),
        ]
        #expect(Set(world.revocations) == expected, sourceLocation: sourceLocation)
        #expect(world.revocations.count == 2, sourceLocation: sourceLocation)
    }
}

/// An error of one layer that can be compared by code and names the field it refused.
protocol RefusalError: CategorizedError {
    var refusedField: String? { get }
}

extension RefusalError {
    var isSecurityRefusal: Bool { category == .securityCheckFailed }
}

extension SessionError: RefusalError {
    var refusedField: String? { field }
}

extension IdentityError: RefusalError {
    var refusedField: String? { field }
}

extension FetchError: RefusalError {
    var refusedField: String? { nil }
}

/// Expects `error` to be the security refusal `expected` stands for: the same code and field, classified as a
/// failed security check.
func expectRefusal<E: RefusalError>(
    _ error: E?,
    _ expected: E,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        error?.code == expected.code,
        "expected \(expected), got \(error.map(String.init(describing:)) ?? "no error")",
        sourceLocation: sourceLocation
    )
    #expect(error?.refusedField == expected.refusedField, sourceLocation: sourceLocation)
    #expect(error?.isSecurityRefusal == true, sourceLocation: sourceLocation)
}
