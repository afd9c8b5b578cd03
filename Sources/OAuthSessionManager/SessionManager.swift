package import ATProtoIdentity
package import ATProtoSyntax
package import DPoPRequestExecutor
package import Foundation
package import HTTPTransport
package import Keystore
package import Logging
import OAuthMetadata
package import WireFormat

/// Signs people in and keeps their sessions under `AccountManager`, the public front door: PAR, callback, tokens,
/// refresh, revocation (atproto.com/specs/oauth, Authorization Flow; Tokens and Session Lifetime).
///
/// One refresh per account runs at a time in a process (this actor holds the in-flight task) and across processes
/// (the keystore's lock on the session entry); after taking the lock the stored session is read again, because
/// another process may already have refreshed it.
package actor SessionManager {
    let store: SessionStore
    /// The only way to the transport: every request is a fetch or goes through a
    /// ``SafeFetcher/pinnedTransport(for:)``, so its destination is checked first.
    let fetcher: SafeFetcher
    let identityResolver: IdentityResolver
    /// What `identityResolver` was made with.
    let identityConfiguration: IdentityResolver.Configuration
    /// The services `identityResolver` uses that are not the defaults; what a sign-in records in its session.
    let identityServices: IdentityServices?
    /// Resolvers for sessions signed in with other identity services than this manager's, by those services.
    private var sessionResolvers: [IdentityServices: IdentityResolver] = [:]
    let metadataResolver: MetadataResolver
    /// DPoP nonces per origin, shared with the XRPC client of the same process.
    let nonceCache: DPoPNonceCache
    let random: any RandomSource
    let now: @Sendable () -> Date
    let logger: Logger
    private var refreshesInFlight: [DID: Task<Session, any Error>] = [:]
    /// Client keys that sign-ins in progress sign with and that are not in the store yet, by `kid`: each is added
    /// to the store's key set only when its sign-in succeeds (``completeSignIn(callbackURL:)``).
    var signInKeys: [String: ClientKey] = [:]
    let broadcaster = SessionEventBroadcaster()

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - keystore: where sessions, keys and pending sign-ins are kept, encrypted.
    ///   - transport: the HTTP transport for every request.
    ///   - identity: where DIDs and handles are resolved.
    ///   - allowHTTPLoopback: development only: allow `http://` and loopback addresses for loopback hosts.
    ///   - addressResolver: resolves each host whose addresses are checked before a request connects to one of them.
    ///   - nonceCache: DPoP nonces per origin, shared by every request of the process.
    ///   - random: randomness for PKCE, `state` and `jti`.
    ///   - now: the clock.
    ///   - logger: where requests are logged; secrets are never logged.
    package init(
        keystore: any Keystore,
        transport: any HTTPTransport,
        identity: IdentityResolver.Configuration = IdentityResolver.Configuration(),
        allowHTTPLoopback: Bool = false,
        addressResolver: any AddressResolver = SystemAddressResolver(),
        nonceCache: DPoPNonceCache = DPoPNonceCache(),
        random: any RandomSource = .system,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "atoauth.oauth", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        let fetcher = SafeFetcher(
            transport: transport,
            configuration: SafeFetcher.Configuration(allowHTTPLoopback: allowHTTPLoopback),
            addressResolver: addressResolver
        )
        self.store = SessionStore(keystore: keystore)
        self.fetcher = fetcher
        self.identityResolver = IdentityResolver(fetcher: fetcher, configuration: identity, now: now)
        self.identityConfiguration = identity
        self.identityServices = IdentityServices(identity)
        self.metadataResolver = MetadataResolver(fetcher: fetcher)
        self.nonceCache = nonceCache
        self.random = random
        self.now = now
        self.logger = logger
    }

    /// A stream of session changes from now on.
    package nonisolated func events() -> AsyncStream<SessionEvent> {
        broadcaster.subscribe()
    }

    /// Every stored session.
    package func storedSessions() async throws -> [Session] {
        try await store.sessions()
    }

    /// Every stored session that can be read, and a report for each one that cannot, so that one damaged entry
    /// does not hide the other accounts.
    package func storedSessionsSkippingUnreadable() async throws -> (
        sessions: [Session], unreadable: [UnreadableSession]
    ) {
        try await store.sessionsSkippingUnreadable()
    }

    /// The stored session of `did` as it is, without refreshing it; `nil` when there is none.
    package nonisolated func storedSession(for did: DID) async throws -> Session? {
        try await store.session(did)
    }

    /// How the last refresh of `did`'s stored session ended without settling, or `nil` when it settled or its token
    /// may be sent again (``Credential/refreshTokenMayBeResent``), read under the session entry's lock as a refresh
    /// reads it: a refresh under way in another process holds the lock and has written its note, so it is waited for
    /// rather than taken for one that was cut off.
    package nonisolated func unsettledRefresh(of did: DID) async throws -> RefreshJournal.Interruption? {
        try await store.keystore.withLock(Session.entryName(did: did)) {
            guard let session = try await store.session(did), !session.credential.refreshTokenMayBeResent,
                let refreshToken = session.refreshToken
            else { return nil }
            return await RefreshJournal(keystore: store.keystore).interruption(did, refreshToken: refreshToken)
        }
    }

    /// The DPoP key of `did`'s session, for resource requests.
    package nonisolated func dpopKey(for did: DID) async throws -> DPoPKey {
        try await store.key(for: did)
    }

    /// Refreshes `did`'s tokens unless another caller already replaced `accessToken`.
    ///
    /// Concurrent callers in this process share one refresh; other processes are excluded by the keystore lock.
    /// - Parameters:
    ///   - did: the account.
    ///   - accessToken: the token the caller found expired or rejected (`invalid_token`); `nil` forces a refresh.
    /// - Returns: the refreshed (or already refreshed) session.
    /// - Throws: ``SessionError``: `signInNeeded` when the server refused the refresh token (the session is deleted),
    ///   `failed` for network and server errors (the session is kept).
    ///
    /// A cancelled caller stops the refresh it waits for while that refresh still waits for the session entry's lock
    /// (a Ctrl-C is not held up by another process's refresh); a refresh under way runs to its end. A caller that
    /// shared a refresh another caller stopped starts one of its own.
    package func refresh(did: DID, replacing accessToken: String?) async throws -> Session {
        while true {
            let task = refreshesInFlight[did] ?? startRefresh(did: did, replacing: accessToken)
            let outcome: Result<Session, any Error>
            do {
                outcome = .success(
                    try await withTaskCancellationHandler {
                        try await task.value
                    } onCancel: {
                        task.cancel()
                    }
                )
            } catch {
                outcome = .failure(error)
            }
            // The refresh is over, so the next caller starts its own rather than share this one's outcome.
            if refreshesInFlight[did] == task { refreshesInFlight[did] = nil }
            // A shared refresh that another caller's cancellation stopped is started again for this one.
            if case .failure(let error) = outcome, error is CancellationError, !Task.isCancelled { continue }
            return try outcome.get()
        }
    }

    private func startRefresh(did: DID, replacing accessToken: String?) -> Task<Session, any Error> {
        let task = Task { try await self.refreshUnderLock(did: did, replacing: accessToken) }
        refreshesInFlight[did] = task
        Task {
            _ = await task.result
            if refreshesInFlight[did] == task { refreshesInFlight[did] = nil }
        }
        return task
    }

    /// `base` pinned to the checked address of `url`'s host, after the destination checks fetches pass; for an
    /// account's writes to its PDS.
    package func pinnedTransport(for url: URL, over base: any HTTPTransport) async throws -> any HTTPTransport {
        try await fetcher.pinnedTransport(for: url, over: base)
    }

    /// The resolver for a signed-in account's identity.
    ///
    /// That is this manager's, unless this manager uses the defaults and the account was signed in with other
    /// services (a sandbox's PLC directory, say), which are then used. A directory or resolver the manager is
    /// configured with always wins.
    func identityResolver(for session: Session) -> IdentityResolver {
        guard identityServices == nil, let services = session.identityServices else { return identityResolver }
        if let made = sessionResolvers[services] { return made }
        let made = IdentityResolver(
            fetcher: fetcher,
            configuration: services.applied(to: identityConfiguration),
            now: now
        )
        sessionResolvers[services] = made
        return made
    }

}
