import ATProtoPermissions
import Foundation

/// The authorization server's memory: pushed requests, consent interactions, codes, sessions and tokens.
///
/// Each method does one complete state change, so concurrent requests see consistent states; time is passed in.
actor AuthorizationStore {
    /// Why a lookup failed.
    enum Failure: Error, Sendable {
        /// Never issued, or already removed.
        case unknown
        /// Issued but expired.
        case expired
        /// Issued to another client.
        case clientMismatch
        /// Already used once.
        case reused
        /// Issued to a confidential client, which did not authenticate.
        case unauthenticated
        /// Bound to another DPoP key than the request's proof (RFC 9449 §5).
        case dpopKeyMismatch
    }

    /// Why a `request_uri` cannot be used (RFC 9126 §4), with the client that pushed it when it was this client's,
    /// so a reloaded page can explain itself and link back to the application.
    struct RequestURIRefusal: Error, Sendable {
        /// What is wrong with the `request_uri`.
        enum Reason: Sendable {
            /// Never issued, or forgotten.
            case unknown
            /// Pushed by another client.
            case clientMismatch
            /// Opened once already.
            case used
            /// Expired before it was opened.
            case expired
        }

        /// What is wrong.
        var reason: Reason
        /// The client that pushed the request, for ``Reason/used`` and ``Reason/expired``.
        var client = ClientPresentation()
    }

    /// How long a used or expired `request_uri` is remembered after it expires, in seconds.
    static let spentRequestMemory: TimeInterval = 3600

    /// A `request_uri` that was used or expired, remembered for ``spentRequestMemory`` after it expires.
    private struct SpentRequest {
        var clientID: String
        var client: ClientPresentation
        var reason: RequestURIRefusal.Reason
        var forgetAt: Date
    }

    private var requests: [String: PushedAuthorization] = [:]
    private var spentRequests: [String: SpentRequest] = [:]
    private var interactions: [String: PushedAuthorization] = [:]
    private var codes: [String: AuthorizationCodeRecord] = [:]
    private var sessions: [String: SessionRecord] = [:]
    private var accessTokens: [String: AccessTokenRecord] = [:]
    private var refreshTokens: [String: String] = [:]
    private var usedRefreshTokens: [String: String] = [:]
    /// The PKCE challenges code exchanges spent, and when each may be forgotten.
    private var spentCodeChallenges: [String: Date] = [:]

    /// Marks `challenge` spent by a code exchange, or returns `false` when one spent it already.
    ///
    /// Like the reference server, a challenge is remembered for a day and a tenth, so every authorization must make a
    /// new PKCE pair (RFC 7636 §4.1).
    func spendCodeChallenge(_ challenge: String, now: Date) -> Bool {
        spentCodeChallenges = spentCodeChallenges.filter { $0.value > now }
        guard spentCodeChallenges[challenge] == nil else { return false }
        spentCodeChallenges[challenge] = now.addingTimeInterval(1.1 * 86_400)
        return true
    }

    /// Remembers a pushed request until its `request_uri` is used or expires.
    func push(_ request: PushedAuthorization) {
        requests[request.requestURI] = request
    }

    /// Consumes a `request_uri` for the given client (RFC 9126 §4: one use).
    ///
    /// A used or expired one is remembered a while, so opening it again says which, with its client; another
    /// client's is refused without either, and is gone.
    func takeRequest(
        _ requestURI: String,
        clientID: String,
        now: Date
    ) throws(RequestURIRefusal) -> PushedAuthorization {
        spentRequests = spentRequests.filter { $0.value.forgetAt > now }
        if let spent = spentRequests[requestURI] {
            guard spent.clientID == clientID else { throw RequestURIRefusal(reason: .clientMismatch) }
            throw RequestURIRefusal(reason: spent.reason, client: spent.client)
        }
        guard let request = requests.removeValue(forKey: requestURI) else {
            throw RequestURIRefusal(reason: .unknown)
        }
        // Opened for another client, it is gone, as the reference server deletes it: a request is tried once.
        guard request.clientID == clientID else { throw RequestURIRefusal(reason: .clientMismatch) }
        let isExpired = request.expiresAt <= now
        spentRequests[requestURI] = SpentRequest(
            clientID: clientID,
            client: request.clientPresentation,
            reason: isExpired ? .expired : .used,
            forgetAt: max(request.expiresAt, now).addingTimeInterval(Self.spentRequestMemory)
        )
        guard !isExpired else { throw RequestURIRefusal(reason: .expired, client: request.clientPresentation) }
        return request
    }

    /// Remembers a request shown on the consent page under its CSRF token.
    func openInteraction(_ request: PushedAuthorization, csrfToken: String) {
        interactions[csrfToken] = request
    }

    /// Consumes the consent page's CSRF token and returns its request.
    func takeInteraction(csrfToken: String, now: Date) throws(Failure) -> PushedAuthorization {
        guard let request = interactions.removeValue(forKey: csrfToken) else { throw .unknown }
        guard request.expiresAt > now else { throw .expired }
        return request
    }

    /// Remembers an issued code.
    func issueCode(_ code: String, record: AuthorizationCodeRecord) {
        codes[code] = record
    }

    /// Redeems a code, which is then used whatever the outcome; a second redemption revokes the session it created,
    /// or, when it comes before that session is created, the session it would create (RFC 6749 §4.1.2).
    func redeemCode(_ code: String, now: Date) throws(Failure) -> AuthorizationCodeRecord {
        guard var record = codes[code] else { throw .unknown }
        if record.isUsed {
            if let sessionID = record.sessionID { deleteSession(sessionID) }
            codes[code]?.isRevoked = true
            throw .reused
        }
        record.isUsed = true
        codes[code] = record
        guard record.expiresAt > now else { throw .expired }
        return record
    }

    /// Creates a session for a redeemed code and issues its first tokens; the access token ends with the session at
    /// the latest, as a refreshed one does.
    ///
    /// Throws ``Failure/reused``, creating nothing, when the code was presented again since it was redeemed.
    func createSession(
        code: String,
        _ session: SessionRecord,
        accessToken: String,
        accessTokenExpiresAt: Date
    ) throws(Failure) -> SessionRecord {
        guard codes[code]?.isRevoked == false else { throw .reused }
        var session = session
        codes[code]?.sessionID = session.id
        refreshTokens[session.refreshToken] = session.id
        addAccessToken(accessToken, to: &session, expiresAt: min(accessTokenExpiresAt, session.expiresAt))
        sessions[session.id] = session
        return session
    }

    /// Why a refresh failed.
    enum RefreshFailure: Error, Sendable {
        /// The token was used before: the whole session was deleted.
        case replayed
        /// The token was never issued, or its session is gone.
        case unknown
        /// The session expired (and was deleted).
        case expired
        /// The refresh token expired before the session did (and the session was deleted).
        case refreshTokenExpired
        /// The token belongs to another client.
        case clientMismatch
        /// The confidential client's key the session is bound to, named here, left its JWKS: the session was deleted.
        case clientKeyRemoved(String)
        /// The client assertion was signed with another key than the session's, named here.
        case clientKeyMismatch(String)
        /// The proof's key is not the session's.
        case keyMismatch
        /// The request asks for a scope the session was not granted.
        case scopeWidened
    }

    /// Rotates a refresh token: the old one becomes used, a new refresh and access token are issued.
    ///
    /// A token that was already used deletes the whole session, whoever presents it, and throws
    /// ``RefreshFailure/replayed`` (RFC 9700 §4.14.2: the server cannot tell which party is legitimate). A wrong
    /// client, DPoP key or client key deletes it too, as the reference server does, so a client that retries with
    /// another key is signed out as it would be there; a widened scope changes nothing. The session's scope becomes
    /// `grant` of the scope requested at the PAR, so it never widens beyond that request. A `requestedScope` may only
    /// name tokens of the original request or of the new grant; it does not narrow the grant.
    ///
    /// A confidential client's session (bound to a client key) needs `clientProof` signed with that key; when the
    /// key is no longer in the client's current keys, the session is deleted (``RefreshFailure/clientKeyRemoved(_:)``).
    /// Its new refresh token expires `confidentialRefreshTokenLifetime` from `now`, at most when the session ends.
    func refresh(
        _ refreshToken: String,
        clientID: String,
        dpopKeyThumbprint: String,
        clientProof: ClientProof?,
        requestedScope: String?,
        grant: @Sendable (String) -> String,
        newRefreshToken: String,
        confidentialRefreshTokenLifetime: TimeInterval,
        newAccessToken: String,
        accessTokenExpiresAt: Date,
        now: Date
    ) throws(RefreshFailure) -> SessionRecord {
        if let sessionID = usedRefreshTokens[refreshToken] {
            deleteSession(sessionID)
            throw .replayed
        }
        guard let sessionID = refreshTokens[refreshToken], var session = sessions[sessionID] else {
            throw .unknown
        }
        guard session.expiresAt > now else {
            deleteSession(sessionID)
            throw .expired
        }
        guard session.refreshTokenExpiresAt > now else {
            deleteSession(sessionID)
            throw .refreshTokenExpired
        }
        let failure: RefreshFailure? =
            if session.clientID != clientID {
                .clientMismatch
            } else if session.dpopKeyThumbprint != dpopKeyThumbprint {
                .keyMismatch
            } else if let bound = session.clientKey, clientProof.map({ !$0.keys.contains(bound) }) ?? false {
                .clientKeyRemoved(bound.keyID)
            } else if let bound = session.clientKey, clientProof?.key != bound {
                .clientKeyMismatch(bound.keyID)
            } else {
                nil
            }
        if let failure {
            deleteSession(sessionID)
            throw failure
        }
        let granted = grant(session.requestedScope)
        if let requestedScope {
            let allowed = ScopeSet(granted: session.requestedScope + " " + granted)
            guard ScopeSet(granted: requestedScope).tokens.allSatisfy(allowed.tokens.contains) else {
                throw .scopeWidened
            }
        }
        session.scope = granted
        refreshTokens[refreshToken] = nil
        usedRefreshTokens[refreshToken] = sessionID
        session.usedRefreshTokens.insert(refreshToken)
        session.refreshToken = newRefreshToken
        if session.clientKey != nil {
            session.refreshTokenExpiresAt = min(
                session.expiresAt,
                now.addingTimeInterval(confidentialRefreshTokenLifetime)
            )
        }
        refreshTokens[newRefreshToken] = sessionID
        addAccessToken(newAccessToken, to: &session, expiresAt: min(accessTokenExpiresAt, session.expiresAt))
        sessions[sessionID] = session
        return session
    }

    /// Ends a confidential client's session whose key left the client's JWKS (atproto.com/specs/oauth, Client
    /// Authentication).
    ///
    /// The session of `refreshToken` is ended when it belongs to `clientID`, is bound to the DPoP key of
    /// `dpopKeyThumbprint`, and is bound to a client key that `keys` no longer holds: whichever key signed the
    /// request, that session can never be refreshed again.
    ///
    /// - Returns: the `kid` the ended session was bound to, or `nil` when nothing was ended.
    func endSessionIfKeyRemoved(
        refreshToken: String,
        clientID: String,
        dpopKeyThumbprint: String,
        keys: ClientKeySet
    ) -> String? {
        guard let sessionID = refreshTokens[refreshToken], let session = sessions[sessionID],
            session.clientID == clientID, session.dpopKeyThumbprint == dpopKeyThumbprint,
            let bound = session.clientKey, !keys.contains(bound)
        else { return nil }
        deleteSession(sessionID)
        return bound.keyID
    }

    /// The record of a live access token; throws ``Failure/expired`` or ``Failure/unknown``.
    func accessToken(_ token: String, now: Date) throws(Failure) -> AccessTokenRecord {
        guard let record = accessTokens[token], sessions[record.sessionID] != nil else { throw .unknown }
        guard record.expiresAt > now else { throw .expired }
        return record
    }

    /// Deletes the session a refresh or access token belongs to; returns its id, or `nil` for an unknown token.
    ///
    /// A `clientID` that differs from the session's throws ``Failure/clientMismatch`` and revokes nothing; so does a
    /// confidential client's session when the request did not authenticate as that client
    /// (``Failure/unauthenticated``, RFC 7009 §2.1), and a proof of another key than `dpopKeyThumbprint`, the one the
    /// session is bound to (``Failure/dpopKeyMismatch``, RFC 9449 §5).
    func revoke(
        token: String,
        clientID: String,
        dpopKeyThumbprint: String,
        isAuthenticated: Bool
    ) throws(Failure) -> String? {
        let sessionID = refreshTokens[token] ?? usedRefreshTokens[token] ?? accessTokens[token]?.sessionID
        guard let sessionID, let session = sessions[sessionID] else { return nil }
        guard clientID == session.clientID else { throw .clientMismatch }
        if session.clientKey != nil, !isAuthenticated { throw .unauthenticated }
        guard dpopKeyThumbprint == session.dpopKeyThumbprint else { throw .dpopKeyMismatch }
        deleteSession(sessionID)
        return sessionID
    }

    private func addAccessToken(_ token: String, to session: inout SessionRecord, expiresAt: Date) {
        session.accessTokens.insert(token)
        accessTokens[token] = AccessTokenRecord(
            sessionID: session.id,
            subject: session.subject,
            scope: session.scope,
            dpopKeyThumbprint: session.dpopKeyThumbprint,
            expiresAt: expiresAt
        )
    }

    private func deleteSession(_ sessionID: String) {
        guard let session = sessions.removeValue(forKey: sessionID) else { return }
        refreshTokens[session.refreshToken] = nil
        for token in session.usedRefreshTokens { usedRefreshTokens[token] = nil }
        for token in session.accessTokens { accessTokens[token] = nil }
    }
}
