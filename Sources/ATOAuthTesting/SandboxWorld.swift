import ATProtoIdentity
import ATProtoSyntax
public import AccountManager
public import Failures
public import Foundation
public import HTTPTransport
public import Keystore
package import Logging
public import OAuthMetadata
public import OAuthSessionManager
public import Sandbox

/// The strict sandbox running in this process, a real transport, an in-memory keystore and a clock they all share:
/// everything an app's own tests need to sign in and call XRPC without a network.
///
/// ```swift
/// try await SandboxWorld.with { world in
///     let accounts = world.accounts()
///     let alice = try await world.signIn("alice.test", with: accounts)
///     let client = try await accounts.client(for: .did(alice.did))
///     _ = try await client.getSession()
/// }
/// ```
public struct SandboxWorld: Sendable {
    /// The sandbox: PLC directory, PDS and authorization server on loopback.
    public let server: SandboxServer
    /// Its three origins.
    public let endpoints: SandboxEndpoints
    /// The production transport.
    public let transport: AsyncHTTPClientTransport
    /// The store shared by every manager made here; several managers model several processes.
    public let keystore: InMemoryKeystore
    /// The clock of the sandbox and of every manager made here.
    public let clock: ShiftableClock

    /// Starts a sandbox with `configuration`, runs `body`, and stops everything on every path.
    public static func with<T>(
        _ configuration: SandboxConfiguration = SandboxConfiguration(autoApprove: true),
        _ body: (SandboxWorld) async throws -> T
    ) async throws -> T {
        try await with(configuration, clock: ShiftableClock(), logger: nil, body)
    }

    /// Starts a sandbox with `configuration` on `clock` that logs to `logger` (nowhere when `nil`), runs `body`,
    /// and stops everything on every path: for tests of the sandbox itself, which read its log or stop its time.
    package static func with<T>(
        _ configuration: SandboxConfiguration,
        clock: ShiftableClock,
        logger: Logger?,
        _ body: (SandboxWorld) async throws -> T
    ) async throws -> T {
        let server = SandboxServer(
            configuration: configuration,
            logger: logger ?? Logger(label: "atoauth.sandbox") { _ in SwiftLogNoOpLogHandler() },
            now: { clock.now() }
        )
        let endpoints = try await server.start()
        do {
            let result = try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(
                    SandboxWorld(
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

    /// The manager configuration that reaches this sandbox: its PLC directory and handle resolver, loopback
    /// allowed, this world's clock.
    public var configuration: AccountManager.Configuration {
        var configuration = AccountManager.Configuration()
        configuration.identity = IdentityResolver.Configuration(
            plcDirectory: endpoints.plcDirectory,
            handleResolverService: endpoints.pds
        )
        configuration.allowHTTPLoopback = true
        configuration.now = { [clock] in clock.now() }
        return configuration
    }

    /// A new account manager over `keystore` (this world's by default) and `transport` (this world's by default).
    public func accounts(
        keystore: (any Keystore)? = nil,
        transport: (any HTTPTransport)? = nil,
        configuration: AccountManager.Configuration? = nil
    ) -> AccountManager {
        AccountManager(
            keystore: keystore ?? self.keystore,
            transport: transport ?? self.transport,
            configuration: configuration ?? self.configuration
        )
    }

    /// A new session manager over this world's keystore, for tests of the OAuth flow itself.
    package func sessions() -> SessionManager {
        accounts().sessions
    }

    /// A loopback client whose redirect goes to a port nobody listens on: the world reads the redirect itself.
    public func oauthClient(scope: String = "atproto transition:generic") throws -> OAuthClient {
        guard let redirect = URL(string: "http://127.0.0.1:9/callback") else { throw SandboxWorldError.noRedirect }
        return try OAuthClient.loopback(redirectURI: redirect, scope: scope)
    }

    /// Plays the browser: opens the authorization URL and returns where the sandbox redirects (the callback URL).
    public func approve(_ request: AuthorizationRequest) async throws -> URL {
        let response = try await transport.send(HTTPRequest(url: request.url))
        guard response.status == 302, let location = response.headers["Location"].flatMap(URL.init(string:)) else {
            throw SandboxWorldError.notApproved(status: response.status)
        }
        return location
    }

    /// Signs `handle` in from start to finish through an account manager.
    public func signIn(_ handle: String = "alice.test", with accounts: AccountManager) async throws -> Account {
        let request = try await accounts.authorize(handle, client: try oauthClient())
        return try await accounts.callback(try await approve(request)).account
    }

    /// Signs `handle` in with its app password (``SandboxAccount/appPassword``) through an account manager.
    public func signInWithAppPassword(
        _ handle: String = "alice.test",
        with accounts: AccountManager
    ) async throws
        -> Account
    {
        guard let password = server.configuration.account(for: handle)?.appPassword else {
            throw SandboxWorldError.noAccount(handle)
        }
        return try await accounts.signInWithAppPassword(.handle(try Handle(validating: handle)), password: password)
            .account
    }

    /// Signs `handle` in from start to finish through a session manager.
    package func signIn(
        _ handle: String = "alice.test",
        with sessions: SessionManager
    ) async throws
        -> Session
    {
        let request = try await sessions.startSignIn(handle, client: try oauthClient())
        return try await sessions.completeSignIn(callbackURL: try await approve(request)).session
    }
}

/// Why a ``SandboxWorld`` sign-in could not be played through.
public enum SandboxWorldError: Error, Sendable, Hashable {
    /// The fixed redirect URI could not be formed.
    case noRedirect
    /// The sandbox did not redirect back after the authorization URL was opened.
    case notApproved(status: Int)
    /// The sandbox hosts no account by this handle.
    case noAccount(String)
}

extension SandboxWorldError: CategorizedError {
    /// The sandbox did not play the sign-in through.
    public var category: FailureCategory { .failed }

    /// This machine for a redirect URI that cannot be formed; the sandbox's server for a sign-in it did not approve.
    public var origin: FailureOrigin {
        switch self {
        case .noRedirect, .noAccount: .machine
        case .notApproved: .upstream
        }
    }

    /// Which failure a ``SandboxWorldError`` is, its details aside: compared with `==`, as in
    /// `error.code == .notApproved`.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// The fixed redirect URI could not be formed.
        case noRedirect
        /// The sandbox did not redirect back after the authorization URL was opened.
        case notApproved
        /// The sandbox hosts no account by the handle given.
        case noAccount
    }

    /// Which failure this is: `error.code == .notApproved`.
    public var code: Code {
        switch self {
        case .noRedirect: .noRedirect
        case .notApproved: .notApproved
        case .noAccount: .noAccount
        }
    }

    /// Says what the sandbox did.
    public var description: String {
        switch self {
        case .noRedirect: "The sandbox world's fixed redirect URI could not be formed."
        case .notApproved(let status): "The sandbox did not redirect back after approval (HTTP \(status))."
        case .noAccount(let handle): "The sandbox hosts no account \(handle)."
        }
    }
}

extension SandboxWorld {
    /// Makes the stored access token of `session` one the PDS does not know, its refresh token still good: the next
    /// call meets `invalid_token` and refreshes once.
    public func breakAccessToken(of session: Session) throws {
        var broken = session
        broken.accessToken = "not-a-token-the-pds-issued"
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try keystore.save(try encoder.encode(broken), as: Session.entryName(did: session.did))
    }

    /// Signs the first test account in, makes it the active account of `accounts`, and breaks its access token
    /// (``breakAccessToken(of:)``): its next call is refused once and refreshes.
    public func signInWithRefusedAccessToken(activeIn accounts: AccountManager) async throws -> Session {
        let session = try await signIn(with: sessions())
        _ = try await accounts.switchTo(.did(session.did))
        try breakAccessToken(of: session)
        return session
    }
}
