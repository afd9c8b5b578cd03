public import ATProtoIdentity
import ATProtoSyntax
package import DPoPRequestExecutor
public import Foundation
public import HTTPTransport
public import Keystore
public import Logging
public import OAuthSessionManager
public import WireFormat

/// The center of atoauth: signed-in accounts (DID → session), the active account, sign-in and sign-out, and one
/// long-lived ``AccountConnection`` per account through which every request to its PDS goes.
///
/// Apps and the command-line tool use this type, not the lower modules. Its verbs follow the reference
/// TypeScript client: ``authorize(_:client:prompt:progress:)`` starts a sign-in, ``callback(_:)`` completes it, ``restore(_:)``
/// returns a signed-in account's connection, ``remove(_:)`` signs out, and ``events()`` reports session changes.
/// `ATClient` adds `client(for:)` and the routed `client()`.
///
/// Each account is its own encrypted session entry, written atomically, and the active account is one small entry
/// written under the keystore's lock, so processes adding, switching and refreshing at the same time never
/// corrupt the registry or lose an account.
public actor AccountManager {
    /// How the manager is set up; every member has a default.
    public struct Configuration: Sendable {
        /// Where DIDs and handles are resolved.
        public var identity = IdentityResolver.Configuration()
        /// Development only: allow `http://` and loopback addresses for loopback hosts.
        public var allowHTTPLoopback = false
        /// Resolves each host whose addresses are checked before a request connects to one of them (fetches, the
        /// token endpoint, the app-password session methods, and the writes to a PDS).
        public var addressResolver: any AddressResolver = SystemAddressResolver()
        /// A file that keeps the servers' DPoP nonces across processes (nonces are not secret), or `nil`.
        public var nonceFile: URL?
        /// When sessions are refreshed ahead of expiry.
        public var refreshPolicy = RefreshPolicy()
        /// Randomness for PKCE, `state`, `jti` and refresh jitter.
        public var random: any RandomSource = .system
        /// The clock.
        public var now: @Sendable () -> Date = { Date() }
        /// Where requests are logged at `debug` level, naming the account each went out as; never a secret.
        public var logger = Logger(label: "atoauth.accounts", factory: { _ in SwiftLogNoOpLogHandler() })

        /// The defaults.
        public init() {}
    }

    /// The sign-in, refresh and sign-out underneath, for this package only.
    package nonisolated let sessions: SessionManager
    /// The store of sessions, keys and the active account.
    package nonisolated let keystore: any Keystore
    /// The transport every request goes through.
    package nonisolated let transport: any HTTPTransport
    /// DPoP nonces per origin, shared by every account of the process.
    package nonisolated let nonceCache: DPoPNonceCache
    nonisolated let configuration: Configuration
    var connections: [DID: AccountConnection] = [:]
    var directory = AccountDirectory()
    /// Which DID each signed-in handle belongs to, read from the store.
    nonisolated let handleIndex: HandleIndex

    /// The keystore entry that names the active account's DID.
    static let activeEntry = "accounts/active"

    /// Creates a manager over a keystore and a transport.
    public init(keystore: any Keystore, transport: any HTTPTransport, configuration: Configuration = Configuration()) {
        let nonceCache = NonceFile.cache(
            at: configuration.nonceFile,
            now: configuration.now(),
            logger: configuration.logger
        )
        self.keystore = keystore
        self.handleIndex = HandleIndex(keystore: keystore)
        self.transport = transport
        self.nonceCache = nonceCache
        self.configuration = configuration
        self.sessions = SessionManager(
            keystore: keystore,
            transport: transport,
            identity: configuration.identity,
            allowHTTPLoopback: configuration.allowHTTPLoopback,
            addressResolver: configuration.addressResolver,
            nonceCache: nonceCache,
            random: configuration.random,
            now: configuration.now,
            logger: configuration.logger
        )
    }

    /// A stream of session changes from now on: sign-ins, refreshes, sign-outs and sessions the server ended.
    public nonisolated func events() -> AsyncStream<SessionEvent> {
        sessions.events()
    }
}
