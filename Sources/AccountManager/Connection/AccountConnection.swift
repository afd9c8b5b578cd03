public import ATProtoSyntax
import DPoPRequestExecutor
import Failures
public import Foundation
public import HTTPTransport
public import Logging
public import OAuthSessionManager
import Synchronization
import WireFormat

/// One signed-in account's long-lived link to its PDS: one executor sharing the process's nonce cache, over the
/// session the session store holds now.
///
/// Every request of an OAuth session goes out with a fresh DPoP proof and the DPoP-bound token (RFC 9449 §7); every
/// request of an app-password session with its access JWT as `Authorization: Bearer` and no proof (RFC 6750 §2.1).
/// Each request asks the session store for the current session (the store decrypts it again only when another
/// process changed it, and keeps the decoded DPoP key); it is refreshed ahead of expiry, and once when the PDS
/// answers `invalid_token`, after which the request is sent once more (RFC 6750 §3.1).
public final class AccountConnection: Sendable {
    /// The account's DID.
    public let did: DID

    private let sessions: SessionManager
    private let transport: any HTTPTransport
    private let nonceCache: DPoPNonceCache
    private let configuration: AccountManager.Configuration
    /// The session last used with the sender made for its sign-in, and the jitter of its access token: what the
    /// connection derived from the store's session, never a freshness or revision of its own.
    private let derived: Mutex<(current: Current, jitterFraction: Double)>
    /// Hands the active account over when this account's session ended and was deleted; what became of it.
    private let handOverActive: @Sendable (DID) async -> ActiveAccountChange?

    /// The session a request goes out with and the sender holding its key.
    struct Current: Sendable {
        var session: Session
        var sender: SessionSender
    }

    init(session: Session, key: DPoPKey?, manager: AccountManager) {
        self.did = session.did
        self.sessions = manager.sessions
        self.transport = manager.transport
        self.nonceCache = manager.nonceCache
        self.configuration = manager.configuration
        self.handOverActive = { [weak manager] did in try? await manager?.handOverActive(fromEnded: did) }
        let sender = Self.sender(key, manager.transport, manager.nonceCache, manager.configuration)
        self.derived = Mutex((Current(session: session, sender: sender), Self.jitter(manager.configuration)))
    }

    /// The session this connection last sent with, never refreshed here; its description shows no token.
    public var session: Session { derived.withLock { $0.current.session } }

    /// The handle when there is one, else the DID.
    public var displayName: String { session.handle?.description ?? did.rawValue }

    /// The current session: read again if the store changed, refreshed when it is about to expire.
    public func currentSession() async throws -> Session {
        try await ready().session
    }

    /// Sends `request` to the account's PDS: its path and query are appended to the PDS origin.
    ///
    /// `authorize` checks the session the request is about to go out with (the current one, read again when another
    /// process changed it), such as whether its grant allows the call; what it throws is thrown before anything is
    /// sent.
    ///
    /// A write (any method but `GET`), which carries the account's data, goes where the token endpoint and the
    /// app-password session methods go: the PDS host is resolved, every address checked as fetches are
    /// (atproto.com/specs/oauth, Security Concerns), and the request connects to the checked address, so a DNS answer
    /// that changes in between cannot send it elsewhere (`AsyncHTTPClientTransport` keeps a pool per host and checked
    /// address, so the writes share kept-alive connections). A read goes through the shared transport's kept-alive
    /// connections, unchecked each time: the PDS URL passed the destination checks when the session was made, only
    /// `https` reaches a host other than loopback, and TLS authenticates the host name (RFC 9110 §4.3.4).
    ///
    /// - Parameters:
    ///   - request: what to send.
    ///   - timeout: how long the whole call may take, a refresh and the retry included; `nil` for no limit beyond the
    ///     transport's own per exchange.
    ///   - logger: gets the call's debug lines (never a token); the manager's configured logger when `nil`.
    ///   - authorize: checks the session the request goes out with.
    /// - Returns: the PDS's answer, whatever its status, after at most one refresh-and-retry on `invalid_token`.
    /// - Throws: ``CallTimeoutError`` when `timeout` passes first; ``AccountError`` when the PDS refuses even the
    ///   refreshed token or the account was signed out; `SessionError` when the refresh fails; `DPoPError` and
    ///   `TransportError` from the executor.
    public func send(
        _ request: PDSRequest,
        timeout: Duration? = nil,
        logger: Logger? = nil,
        authorize: @escaping @Sendable (Session) throws -> Void = { _ in }
    ) async throws -> HTTPResponse {
        try await send(request, deadline: CallDeadline(timeout), logger: logger, authorize: authorize)
    }

    /// Sends `method` to `path` as ``send(_:timeout:logger:authorize:)`` sends a ``PDSRequest`` of these fields.
    public func send(
        _ method: HTTPMethod,
        path: String,
        percentEncodedQuery: String? = nil,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        authorize: @escaping @Sendable (Session) throws -> Void = { _ in }
    ) async throws -> HTTPResponse {
        var request = PDSRequest(method: method, path: path, percentEncodedQuery: percentEncodedQuery, body: body)
        request.headers = headers
        return try await send(request, authorize: authorize)
    }

    /// Streams `request` to the account's PDS as ``send(_:timeout:logger:authorize:)`` sends it: `body` (in place of
    /// `request.body`) goes in chunks, again from its start on a retry, and the answer returns at its head, its body
    /// read as it comes; an answer that may say `invalid_token` (400, 401) is read ahead, up to 64 KiB, to tell (a
    /// longer one by its `WWW-Authenticate` header alone).
    ///
    /// `timeout` bounds the call up to the answer's head; reading its body is the caller's.
    public func stream(
        _ request: PDSRequest,
        body: HTTPRequestBody?,
        timeout: Duration? = nil,
        logger: Logger? = nil,
        authorize: @escaping @Sendable (Session) throws -> Void = { _ in }
    ) async throws -> HTTPStreamedResponse {
        try await stream(request, body: body, deadline: CallDeadline(timeout), logger: logger, authorize: authorize)
    }

    /// Sends `request` before `deadline` (none when `nil`), as ``send(_:timeout:logger:authorize:)`` does; for a
    /// caller that set the deadline itself, earlier in the call.
    package func send(
        _ request: PDSRequest,
        deadline: CallDeadline?,
        logger: Logger?,
        authorize: @escaping @Sendable (Session) throws -> Void
    ) async throws -> HTTPResponse {
        try await retrying(request, within: deadline, logger: logger, authorize: authorize) { sender, request, token in
            let response = try await sender.send(request, accessToken: token)
            return (response, response)
        }
    }

    /// Streams `request` before `deadline` (none when `nil`), as ``stream(_:body:timeout:logger:authorize:)`` does.
    package func stream(
        _ request: PDSRequest,
        body: HTTPRequestBody?,
        deadline: CallDeadline?,
        logger: Logger?,
        authorize: @escaping @Sendable (Session) throws -> Void
    ) async throws -> HTTPStreamedResponse {
        try await retrying(request, within: deadline, logger: logger, authorize: authorize) { sender, request, token in
            var response = try await sender.stream(request, body: body, accessToken: token)
            guard [400, 401].contains(response.status) else { return (response, nil) }
            let (whole, replay) = try await response.body.peek(upTo: 64 * 1024)
            response.body = replay
            // A longer body is not read, but the headers still tell a DPoP `invalid_token` (RFC 9449 §7.1).
            let readable = HTTPResponse(status: response.status, headers: response.headers, body: whole ?? Data())
            return (response, readable)
        }
    }

    /// The call as a timeout names it: method, path and account, never the query.
    private func describe(_ request: PDSRequest) -> String {
        "\(request.method) \(request.path) as \(displayName)"
    }

    /// Sends as ``sendingWithRetry(_:logger:authorize:_:)`` does, before `deadline` (none when `nil`).
    private func retrying<Answer: Sendable>(
        _ request: PDSRequest,
        within deadline: CallDeadline?,
        logger: Logger?,
        authorize: @escaping @Sendable (Session) throws -> Void,
        _ send:
            @escaping @Sendable (SessionSender, HTTPRequest, String) async throws -> (Answer, readable: HTTPResponse?)
    ) async throws -> Answer {
        try await CallDeadline.run(within: deadline, call: self.describe(request)) {
            try await self.sendingWithRetry(request, logger: logger, authorize: authorize, send)
        }
    }

    /// Sends with the current session, and once more after a refresh when the PDS answers `invalid_token`.
    ///
    /// `send` gives the answer and, when it may be a refusal, the same answer read whole. `authorize` judges each
    /// session a request goes out with, the refreshed one too.
    private func sendingWithRetry<Answer>(
        _ request: PDSRequest,
        logger: Logger?,
        authorize: (Session) throws -> Void,
        _ send: (SessionSender, HTTPRequest, String) async throws -> (Answer, readable: HTTPResponse?)
    ) async throws -> Answer {
        let logger = logger ?? configuration.logger
        var current = try await ready()
        try authorize(current.session)
        logger.debug("\(request.method) \(request.path) as \(displayName) (\(did))")
        var (answer, readable) = try await attempt(request, with: current, send)
        guard let refused = readable, InvalidTokenAnswer.matches(refused, kind: current.session.kind) else {
            return answer
        }
        logger.debug("the PDS refused the access token of \(did); refreshing once")
        current = try await refreshed(replacing: current.session.accessToken)
        try authorize(current.session)  // A refresh may grant less (atproto.com/specs/permission).
        (answer, readable) = try await attempt(request, with: current, send)
        if let refused = readable, InvalidTokenAnswer.matches(refused, kind: current.session.kind) {
            throw AccountError.sessionRejected(
                "the PDS refused the refreshed access token of \(displayName)",
                account: displayName,
                kind: current.session.kind
            )
        }
        return answer
    }

    /// Sends `request` once with the session of `current`; a write over a transport pinned to the PDS's checked
    /// address.
    private func attempt<Answer>(
        _ request: PDSRequest,
        with current: Current,
        _ send: (SessionSender, HTTPRequest, String) async throws -> (Answer, readable: HTTPResponse?)
    ) async throws -> (Answer, readable: HTTPResponse?) {
        let http = try request.http(on: current.session.pds)
        var sender = current.sender
        if request.method != .get {
            sender = sender.over(try await sessions.pinnedTransport(for: http.url, over: transport))
        }
        return try await send(sender, http, current.session.accessToken)
    }

    /// Refreshes the session now, whatever its expiry, and returns the new one; for a front end that shows the
    /// rotation (the demo).
    package func refresh() async throws -> Session {
        let current = try await ready()
        return try await refreshed(replacing: current.session.accessToken).session
    }

    /// Sends with the session as this process last read it: no re-read, no refresh, no retry; for a front end that
    /// shows that a revoked token no longer works (the demo).
    package func sendAsLastRead(_ method: HTTPMethod, path: String) async throws -> HTTPResponse {
        let current = derived.withLock { $0.current }
        let request = try PDSRequest(method: method, path: path).http(on: current.session.pds)
        return try await current.sender.send(request, accessToken: current.session.accessToken)
    }

    /// The session to send with, as the session store holds it now, refreshed when due.
    func ready() async throws -> Current {
        var current = try await stored()
        let jitterFraction = derived.withLock { $0.jitterFraction }
        let policy = configuration.refreshPolicy
        if policy.needsRefresh(current.session, now: configuration.now(), jitterFraction: jitterFraction) {
            current = try await refreshed(replacing: current.session.accessToken)
        }
        return current
    }

    /// Refreshes unless another caller (in this process or another) already replaced `accessToken`.
    ///
    /// - Throws: ``AccountError`` naming the account and its permissions when the session ended: the server
    ///   refused the refresh, or the session had to be deleted.
    func refreshed(replacing accessToken: String) async throws -> Current {
        let session: Session
        do {
            session = try await sessions.refresh(did: did, replacing: accessToken)
        } catch let error as SessionError where error.category == .signInNeeded {
            var ended = Self.ended(derived.withLock { $0.current.session }, error)
            ended.activeChange = await handOverActive(did)
            throw ended
        }
        return try await use(session)
    }

    /// The error for a session that ended during a refresh, with what the user needs to sign in again.
    static func ended(_ session: Session, _ error: SessionError) -> AccountError {
        var ended = endedError(session, error)
        if case .oauth(let grant) = session.credential, grant.clientKeyID != nil {
            ended.confidentialClientID = grant.clientID
        }
        return ended
    }

    private static func endedError(_ session: Session, _ error: SessionError) -> AccountError {
        let name = session.handle?.description ?? session.did.rawValue
        let scope = session.requestedScope ?? session.scope
        guard error.code == .refreshRefused else {
            return .sessionEnded(name, requestedScope: scope, reason: error.reason, kind: session.kind)
        }
        var reason = "the refresh was refused"
        if let code = error.serverError {
            reason += " (\(code)" + (error.serverErrorDescription.map { ": \($0)" } ?? "") + ")"
        }
        return .signedOutByServer(
            name,
            requestedScope: scope,
            reason: reason + ", so the session here was deleted",
            kind: session.kind
        )
    }

    /// The session the store holds now.
    ///
    /// - Throws: ``AccountError`` when another process signed the account out, naming a client key removal that
    ///   ended it.
    private func stored() async throws -> Current {
        guard let session = try await sessions.storedSession(for: did) else {
            if let ended = await sessions.endedSession(matching: .did(did)) {
                throw AccountError.clientKeyRemoved(ended)
            }
            let name = derived.withLock { $0.current.session.displayName }
            throw AccountError(.noSuchAccount, "\(name) (it was signed out)", account: name)
        }
        return try await use(session)
    }

    /// Sends with `session` from now on: a new sign-in (a different `createdAt` or kind) brings a new DPoP key, or
    /// none for an app-password session; a new access token a new jitter.
    private func use(_ session: Session) async throws -> Current {
        let previous = derived.withLock { $0.current }
        var current = Current(session: session, sender: previous.sender)
        if session.createdAt != previous.session.createdAt || session.kind != previous.session.kind {
            let key = session.kind == .oauth ? try await sessions.dpopKey(for: did) : nil
            current.sender = Self.sender(key, transport, nonceCache, configuration)
        }
        let renewed = session.accessToken != previous.session.accessToken
        let jitterFraction = renewed ? Self.jitter(configuration) : nil
        derived.withLock { derived in
            derived.current = current
            if let jitterFraction { derived.jitterFraction = jitterFraction }
        }
        return current
    }

    /// A DPoP executor for an OAuth session's key; a Bearer sender for an app-password session (no key).
    private static func sender(
        _ key: DPoPKey?,
        _ transport: any HTTPTransport,
        _ nonceCache: DPoPNonceCache,
        _ configuration: AccountManager.Configuration
    ) -> SessionSender {
        guard let key else { return .bearer(transport) }
        return .dpop(
            DPoPRequestExecutor(
                transport: transport,
                key: key,
                nonceCache: nonceCache,
                random: configuration.random,
                now: configuration.now
            )
        )
    }

    private static func jitter(_ configuration: AccountManager.Configuration) -> Double {
        Double(configuration.random.bytes(count: 1)[0]) / 255
    }
}
