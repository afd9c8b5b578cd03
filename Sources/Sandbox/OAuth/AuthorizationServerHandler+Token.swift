import Foundation

extension AuthorizationServerHandler {
    /// `POST /oauth/token` (RFC 6749 §4.1.3, §6): the `authorization_code` and `refresh_token` grants, DPoP-bound.
    ///
    /// A confidential client authenticates with a client assertion (RFC 7523 §3) at both grants; the code exchange
    /// binds the session to the assertion's key, and its session and refresh tokens live longer
    /// (atproto.com/specs/oauth, Tokens and Session Lifetime).
    func token(_ request: SandboxRequest, proof: VerifiedDPoPProof) async throws(SandboxRejection) -> SandboxResponse {
        let form = try formParameters(request)
        switch form["grant_type"] {
        case "authorization_code":
            return try await authorizationCodeGrant(request, form: form, proof: proof)
        case "refresh_token":
            return try await refreshTokenGrant(request, form: form, proof: proof)
        case nil:
            throw reject(.invalidRequest, "grant_type is required")
        case let other?:
            throw reject(.unsupportedGrantType, "grant_type \(other) is not supported", error: "unsupported_grant_type")
        }
    }

    private func authorizationCodeGrant(
        _ request: SandboxRequest,
        form: [String: String],
        proof: VerifiedDPoPProof
    ) async throws(SandboxRejection) -> SandboxResponse {
        let client = try await resolveClient(form["client_id"])
        let clientProof = try await authenticateClient(form: form, client: client)
        let clientID = client.clientID
        let code = try required(form, "code")
        let redirectURI = try required(form, "redirect_uri")
        let verifier = try required(form, "code_verifier")
        let record: AuthorizationCodeRecord
        do {
            record = try await core.authorizations.redeemCode(code, now: core.now())
        } catch .reused {
            throw invalidGrant(
                .codeReuse,
                "the code \(SandboxMonitor.redact(code)) was already used; the tokens it issued are revoked"
            )
        } catch .expired {
            throw invalidGrant(.invalidCode, "the code has expired")
        } catch {
            throw invalidGrant(.invalidCode, "the code is unknown")
        }
        let pushed = record.request
        guard clientID == pushed.clientID else {
            throw invalidGrant(.invalidClient, "client_id differs from the PAR's client_id")
        }
        guard redirectURI == pushed.redirectURI else {
            throw invalidGrant(.redirectURIMismatch, "redirect_uri differs from the one sent in the PAR")
        }
        guard PKCEVerification.isWellFormed(verifier) else {
            throw reject(.invalidRequest, "code_verifier must be 43 to 128 unreserved characters")
        }
        guard PKCEVerification.s256Challenge(for: verifier) == pushed.codeChallenge else {
            throw invalidGrant(.pkceMismatch, "code_verifier does not hash (S256) to the code_challenge")
        }
        guard await core.authorizations.spendCodeChallenge(pushed.codeChallenge, now: core.now()) else {
            throw invalidGrant(
                .codeChallengeReuse,
                "the code_challenge was spent by an earlier code exchange; every authorization needs a new PKCE pair"
            )
        }
        guard proof.thumbprint == pushed.dpopKeyThumbprint else {
            throw invalidGrant(.dpopKeyMismatch, "the DPoP proof's key is not the one used for the PAR")
        }
        guard clientProof?.key == pushed.clientKey else {
            throw invalidGrant(
                .clientKeyMismatch,
                "the client assertion is signed with another key than the PAR's (\(pushed.clientKey?.keyID ?? "none"))"
            )
        }
        let settings = core.configuration
        let now = core.now()
        let accessToken = "acc-" + core.randomToken()
        let expiresAt = now.addingTimeInterval(
            clientProof == nil ? settings.sessionLifetime : settings.confidentialSessionLifetime
        )
        let refreshTokenExpiresAt =
            clientProof == nil
            ? expiresAt : min(expiresAt, now.addingTimeInterval(settings.confidentialRefreshTokenLifetime))
        let session: SessionRecord
        do {
            session = try await core.authorizations.createSession(
                code: code,
                SessionRecord(
                    id: core.randomToken(bytes: 12),
                    subject: record.subject,
                    clientID: clientID,
                    requestedScope: pushed.scope,
                    scope: PermissionGrant.granted(pushed.scope, settings: settings),
                    dpopKeyThumbprint: proof.thumbprint,
                    clientKey: clientProof?.key,
                    refreshToken: "ref-" + core.randomToken(),
                    expiresAt: expiresAt,
                    refreshTokenExpiresAt: refreshTokenExpiresAt
                ),
                accessToken: accessToken,
                accessTokenExpiresAt: now.addingTimeInterval(settings.accessTokenLifetime)
            )
        } catch {
            throw invalidGrant(
                .codeReuse,
                "the code \(SandboxMonitor.redact(code)) was presented again during its exchange; no tokens are issued"
            )
        }
        core.monitor.count { $0.authorizationCodeGrantsSucceeded += 1 }
        let binding = session.clientKey.map { ", bound to client key \($0.keyID)" } ?? ""
        core.monitor.note(
            request,
            "issued tokens for \(session.subject), session \(SandboxMonitor.redact(session.id)), scope \"\(session.scope)\""
                + binding
        )
        return tokenResponse(session, accessToken: accessToken, now: now, lifetime: settings.accessTokenLifetime)
    }

    private func refreshTokenGrant(
        _ request: SandboxRequest,
        form: [String: String],
        proof: VerifiedDPoPProof
    ) async throws(SandboxRejection) -> SandboxResponse {
        if core.injectsRefreshFailure() {
            throw reject(
                .injectedFault,
                "injected fault refreshServerError: answering 500; the refresh token stays valid",
                error: "server_error",
                status: 500
            )
        }
        let client = try await resolveClient(form["client_id"])
        let presented = try await presentedAssertion(form: form, client: client)
        let refreshToken = try required(form, "refresh_token")
        var clientProof: ClientProof?
        if let presented {
            let ended = await core.authorizations.endSessionIfKeyRemoved(
                refreshToken: refreshToken,
                clientID: client.clientID,
                dpopKeyThumbprint: proof.thumbprint,
                keys: presented.keys
            )
            if let ended { throw refreshRejection(.clientKeyRemoved(ended), token: refreshToken) }
            clientProof = try verifyAssertion(presented, client: client)
        }
        let settings = core.configuration
        let now = core.now()
        let accessToken = "acc-" + core.randomToken()
        let session: SessionRecord
        do {
            session = try await core.authorizations.refresh(
                refreshToken,
                clientID: client.clientID,
                dpopKeyThumbprint: proof.thumbprint,
                clientProof: clientProof,
                requestedScope: form["scope"],
                grant: { PermissionGrant.granted($0, settings: settings) },
                newRefreshToken: "ref-" + core.randomToken(),
                confidentialRefreshTokenLifetime: settings.confidentialRefreshTokenLifetime,
                newAccessToken: accessToken,
                accessTokenExpiresAt: now.addingTimeInterval(settings.accessTokenLifetime),
                now: now
            )
        } catch {
            throw refreshRejection(error, token: refreshToken)
        }
        core.monitor.count { $0.refreshGrantsSucceeded += 1 }
        core.monitor.note(
            request,
            "rotated the refresh token of session \(SandboxMonitor.redact(session.id)), scope \"\(session.scope)\""
        )
        return tokenResponse(session, accessToken: accessToken, now: now, lifetime: settings.accessTokenLifetime)
    }

    private func refreshRejection(_ failure: AuthorizationStore.RefreshFailure, token: String) -> SandboxRejection {
        switch failure {
        case .replayed:
            core.monitor.count { $0.refreshTokenReplays += 1 }
            return invalidGrant(
                .refreshTokenReplay,
                "refresh token \(SandboxMonitor.redact(token)) was already used: the whole session is deleted"
            )
        case .unknown:
            return invalidGrant(.invalidRefreshToken, "the refresh token is unknown or revoked")
        case .expired:
            return invalidGrant(.invalidRefreshToken, "the session has expired")
        case .refreshTokenExpired:
            return invalidGrant(
                .invalidRefreshToken,
                "the refresh token has expired (a confidential client's each expire confidentialRefreshTokenLifetime "
                    + "after issue); the session is deleted"
            )
        case .clientKeyRemoved(let keyID):
            core.monitor.count { $0.sessionsEndedByKeyRemoval += 1 }
            return invalidGrant(
                .clientKeyRemoved,
                "the session is bound to key \(keyID), which is no longer in the client's JWKS: the session has ended"
            )
        case .clientKeyMismatch(let keyID):
            return invalidGrant(
                .clientKeyMismatch,
                "the session is bound to key \(keyID): sign the client assertion with it"
            )
        case .clientMismatch:
            return invalidGrant(.invalidClient, "client_id differs from the session's client")
        case .scopeWidened:
            return invalidScope("a refresh cannot widen the session's scope")
        case .keyMismatch:
            return invalidGrant(.dpopKeyMismatch, "the DPoP proof's key is not the session's key")
        }
    }

    /// The token answer (RFC 6749 §5.1): the access token lives `lifetime`, but never past the session's end.
    private func tokenResponse(
        _ session: SessionRecord,
        accessToken: String,
        now: Date,
        lifetime: TimeInterval
    ) -> SandboxResponse {
        .json(
            200,
            [
                "access_token": accessToken,
                "token_type": "DPoP",
                "expires_in": WholeSeconds.of(min(lifetime, session.expiresAt.timeIntervalSince(now))),
                "refresh_token": session.refreshToken,
                "scope": session.scope,
                "sub": session.subject,
            ]
        )
    }
}
