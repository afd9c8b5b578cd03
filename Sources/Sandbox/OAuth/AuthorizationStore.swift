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
    }

    private var requests: [String: PushedAuthorization] = [:]
    private var interactions: [String: PushedAuthorization] = [:]
    private var codes: [String: AuthorizationCodeRecord] = [:]
    private var sessions: [String: SessionRecord] = [:]
    private var accessTokens: [String: AccessTokenRecord] = [:]
    private var refreshTokens: [String: String] = [:]
    private var usedRefreshTokens: [String: String] = [:]

    /// Remembers a pushed request until its `request_uri` is used or expires.
    func push(_ request: PushedAuthorization) {
        requests[request.requestURI] = request
    }

    /// Consumes a `request_uri` for the given client (RFC 9126 §4: one use).
    func takeRequest(_ requestURI: String, clientID: String, now: Date) throws(Failure) -> PushedAuthorization {
        guard let request = requests[requestURI] else { throw .unknown }
        guard request.clientID == clientID else { throw .clientMismatch }
        requests[requestURI] = nil
        guard request.expiresAt > now else { throw .expired }
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

    /// Redeems a code, which is then used whatever the outcome; a second redemption revokes the session it created.
    func redeemCode(_ code: String, now: Date) throws(Failure) -> AuthorizationCodeRecord {
        guard var record = codes[code] else { throw .unknown }
        if record.isUsed {
            if let sessionID = record.sessionID { deleteSession(sessionID) }
            throw .reused
        }
        record.isUsed = true
        codes[code] = record
        guard record.expiresAt > now else { throw .expired }
        return record
    }

    /// Creates a session for a redeemed code and issues its first tokens.
    func createSession(
        code: String,
        _ session: SessionRecord,
        accessToken: String,
        accessTokenExpiresAt: Date
    ) -> SessionRecord {
        var session = session
        codes[code]?.sessionID = session.id
        refreshTokens[session.refreshToken] = session.id
        addAccessToken(accessToken, to: &session, expiresAt: accessTokenExpiresAt)
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
        /// The token belongs to another client.
        case clientMismatch
        /// The proof's key is not the session's.
        case keyMismatch
        /// The request asks for a scope the session was not granted.
        case scopeWidened
    }

    /// Rotates a refresh token: the old one becomes used, a new refresh and access token are issued.
    ///
    /// A token that was already used deletes the whole session and throws ``RefreshFailure/replayed``; a wrong
    /// client, key or scope changes nothing. The session's scope becomes `grant` of the scope requested at the PAR,
    /// so it never widens beyond that request. A `requestedScope` may only name tokens of the original request or of
    /// the new grant; it does not narrow the grant.
    func refresh(
        _ refreshToken: String,
        clientID: String,
        dpopKeyThumbprint: String,
        requestedScope: String?,
        grant: @Sendable (String) -> String,
        newRefreshToken: String,
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
        guard session.clientID == clientID else { throw .clientMismatch }
        guard session.dpopKeyThumbprint == dpopKeyThumbprint else { throw .keyMismatch }
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
        refreshTokens[newRefreshToken] = sessionID
        addAccessToken(newAccessToken, to: &session, expiresAt: min(accessTokenExpiresAt, session.expiresAt))
        sessions[sessionID] = session
        return session
    }

    /// The record of a live access token; throws ``Failure/expired`` or ``Failure/unknown``.
    func accessToken(_ token: String, now: Date) throws(Failure) -> AccessTokenRecord {
        guard let record = accessTokens[token], sessions[record.sessionID] != nil else { throw .unknown }
        guard record.expiresAt > now else { throw .expired }
        return record
    }

    /// Deletes the session a refresh or access token belongs to; returns its id, or `nil` for an unknown token.
    ///
    /// A `clientID` that differs from the session's throws ``Failure/clientMismatch`` and revokes nothing.
    func revoke(token: String, clientID: String?) throws(Failure) -> String? {
        let sessionID = refreshTokens[token] ?? usedRefreshTokens[token] ?? accessTokens[token]?.sessionID
        guard let sessionID, let session = sessions[sessionID] else { return nil }
        if let clientID, clientID != session.clientID { throw .clientMismatch }
        deleteSession(sessionID)
        return sessionID
    }

    /// The number of live sessions.
    var sessionCount: Int { sessions.count }

    private func addAccessToken(_ token: String, to session: inout SessionRecord, expiresAt: Date) {
        session.accessTokens.insert(token)
        accessTokens[token] = AccessTokenRecord(
            sessionID: session.id,
            subject: session.subject,
            clientID: session.clientID,
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
