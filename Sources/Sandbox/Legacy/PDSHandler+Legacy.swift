import Foundation
import HTTPTransport

extension PDSHandler {
    /// A new access JWT and refresh JWT, with their ids (`jti`).
    private typealias LegacyTokens = (access: String, accessID: String, refresh: String, refreshID: String)

    /// The legacy session methods: `com.atproto.server.createSession`, `refreshSession` and `deleteSession`.
    static let legacySessionMethods: Set<String> = [
        "com.atproto.server.createSession", "com.atproto.server.refreshSession", "com.atproto.server.deleteSession",
    ]

    /// Answers a legacy session method (`POST`); Bearer only, so any DPoP proof is refused.
    func legacySession(_ name: String, _ request: SandboxRequest) async throws(SandboxRejection) -> SandboxResponse {
        guard request.header("dpop") == nil else {
            throw reject(
                .dpopWithLegacyToken,
                400,
                "InvalidRequest",
                "app-password sessions are Bearer only: \(name) takes no DPoP proof"
            )
        }
        // The encoding the method's lexicon gives: a JSON input for createSession, none for the other two, as the
        // reference PDS holds each request to it.
        if name == "com.atproto.server.createSession" {
            guard request.mediaType == "application/json" else {
                throw invalid(
                    "Wrong request encoding (Content-Type): \(request.mediaType ?? "none"); createSession takes JSON"
                )
            }
        } else if !request.body.isEmpty {
            throw invalid("A request body was provided when none was expected: \(name) takes no input")
        }
        switch name {
        case "com.atproto.server.createSession": return try await createLegacySession(request)
        case "com.atproto.server.refreshSession": return try await refreshLegacySession(request)
        default: return try await deleteLegacySession(request)
        }
    }

    /// `createSession`: `{identifier, password, authFactorToken?}` → new JWTs, when the app password (and the
    /// sign-in code of a two-factor account) is right.
    private func createLegacySession(_ request: SandboxRequest) async throws(SandboxRejection) -> SandboxResponse {
        guard let input = JSONBody.decodeObject(request.body), let identifier = input["identifier"] as? String,
            let password = input["password"] as? String
        else {
            throw invalid("identifier and password are required")
        }
        guard let account = core.configuration.account(for: identifier), account.appPassword == password else {
            throw reject(.invalidCredentials, 401, "AuthenticationRequired", "Invalid identifier or password")
        }
        if let expected = account.authFactorToken {
            guard let given = input["authFactorToken"] as? String else {
                throw reject(
                    .authFactorRequired,
                    401,
                    "AuthFactorTokenRequired",
                    "A sign in code has been sent to your email address"
                )
            }
            guard given == expected else {
                throw reject(.authFactorRequired, 400, "InvalidToken", "Token is invalid")
            }
        }
        let sessionID = core.randomToken(bytes: 16)
        let tokens = issueLegacyTokens(
            for: account.did,
            accessID: core.randomToken(bytes: 16),
            refreshID: core.randomToken(bytes: 16)
        )
        await core.legacySessions.create(
            did: account.did,
            sessionID: sessionID,
            accessID: tokens.accessID,
            refreshID: tokens.refreshID
        )
        core.monitor.count { $0.legacySessionsCreated += 1 }
        core.monitor.note(request, "app-password session created for \(account.handle)")
        return legacySessionAnswer(account, tokens)
    }

    /// `refreshSession` with the refresh JWT as Bearer: rotates it.
    ///
    /// A used one is answered with the same next refresh JWT id within the reuse grace, and ends the session after it
    /// (``LegacySessionStore``).
    private func refreshLegacySession(_ request: SandboxRequest) async throws(SandboxRejection) -> SandboxResponse {
        if core.injectsRefreshFailure() {
            throw reject(
                .injectedFault,
                500,
                "InternalServerError",
                "injected fault refreshServerError: answering 500; the refresh JWT stays valid"
            )
        }
        let claims = try bearerRefreshJWT(request)
        let accessID = core.randomToken(bytes: 16)
        let newRefreshID = core.randomToken(bytes: 16)
        let refreshID: String
        do {
            refreshID = try await core.legacySessions.rotate(
                claims.id,
                newAccessID: accessID,
                newRefreshID: newRefreshID,
                now: core.now()
            )
        } catch {
            throw refused(error)
        }
        guard let account = core.configuration.account(for: claims.subject) else {
            throw reject(.invalidToken, 400, "InvalidToken", "the token's account no longer exists")
        }
        if refreshID != newRefreshID {
            core.monitor.count { $0.legacyRefreshTokenReuses += 1 }
            core.monitor.note(
                request,
                "a used refresh JWT of \(account.handle) was presented again within its grace: same next refresh JWT"
            )
        }
        core.monitor.count { $0.legacyRefreshesSucceeded += 1 }
        return legacySessionAnswer(
            account,
            issueLegacyTokens(for: account.did, accessID: accessID, refreshID: refreshID)
        )
    }

    /// `deleteSession` with the refresh JWT as Bearer: ends the session.
    private func deleteLegacySession(_ request: SandboxRequest) async throws(SandboxRejection) -> SandboxResponse {
        let claims = try bearerRefreshJWT(request)
        let used: Bool
        do {
            used = try await core.legacySessions.end(claims.id, now: core.now())
        } catch {
            throw refused(error)
        }
        core.monitor.count {
            $0.legacySessionsDeleted += 1
            if used { $0.legacySessionsDeletedWithUsedJWT += 1 }
        }
        let jwt = used ? " with a used refresh JWT (the reference PDS would keep the one that replaced it)" : ""
        core.monitor.note(request, "app-password session of \(claims.subject) deleted\(jwt)")
        return SandboxResponse(status: 200, headers: [], body: Data())
    }

    /// The answer to a refresh JWT the store refused: a replay (which ended its session) or a session that is gone.
    private func refused(_ failure: LegacySessionStore.Failure) -> SandboxRejection {
        switch failure {
        case .replayed:
            core.monitor.count { $0.refreshTokenReplays += 1 }
            return reject(
                .refreshTokenReplay,
                400,
                "ExpiredToken",
                "the refresh token was used more than two hours ago, so its session was deleted"
            )
        case .revoked:
            return reject(.invalidRefreshToken, 400, "ExpiredToken", "Token has been revoked")
        }
    }

    /// The refresh JWT of `Authorization: Bearer <refresh JWT>`, signed here and not expired.
    private func bearerRefreshJWT(_ request: SandboxRequest) throws(SandboxRejection) -> LegacyJWT.Claims {
        let values = request.headerValues("authorization")
        let parts = values.first?.split(separator: " ", maxSplits: 1) ?? []
        guard values.count == 1, parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw reject(.authorizationMissing, 401, "AuthMissing", "send Authorization: Bearer <refresh JWT>")
        }
        guard let claims = core.legacyJWT.verify(String(parts[1])), claims.kind == .refresh else {
            throw reject(.invalidToken, 400, "InvalidToken", "Token could not be verified")
        }
        try checkNotExpired(claims)
        return claims
    }

    /// Refuses an expired legacy JWT, as the reference PDS does.
    private func checkNotExpired(_ claims: LegacyJWT.Claims) throws(SandboxRejection) {
        guard claims.expiresAt > core.now() else {
            throw reject(.expiredToken, 400, "ExpiredToken", "Token has expired")
        }
    }

    /// Access and refresh JWTs for `did` with the ids given.
    private func issueLegacyTokens(for did: String, accessID: String, refreshID: String) -> LegacyTokens {
        let now = core.now()
        let settings = core.configuration
        func issue(_ kind: LegacyJWT.Kind, _ id: String, lifetime: TimeInterval) -> String {
            core.legacyJWT.issue(kind, subject: did, id: id, issuedAt: now, expiresAt: now.addingTimeInterval(lifetime))
        }
        return (
            issue(.access, accessID, lifetime: settings.accessTokenLifetime), accessID,
            issue(.refresh, refreshID, lifetime: settings.sessionLifetime), refreshID
        )
    }

    private func legacySessionAnswer(_ account: SandboxAccount, _ tokens: LegacyTokens) -> SandboxResponse {
        .json(
            200,
            [
                "accessJwt": tokens.access, "refreshJwt": tokens.refresh, "did": account.did,
                "handle": account.handle, "active": true,
            ]
        )
    }

    /// Authenticates a resource request carrying a legacy JWT: `Authorization: Bearer <access JWT>` and no DPoP
    /// proof; the same JWT as `Authorization: DPoP`, or with a proof, is refused.
    func authenticateLegacy(
        _ request: SandboxRequest,
        scheme: String,
        _ claims: LegacyJWT.Claims
    ) async throws(SandboxRejection) -> AuthenticatedCaller {
        guard scheme == "bearer", request.header("dpop") == nil else {
            throw reject(
                .dpopWithLegacyToken,
                400,
                "InvalidToken",
                "a legacy app-password JWT is a Bearer token: send it as Authorization: Bearer, with no DPoP proof"
            )
        }
        guard claims.kind == .access else {
            throw reject(.invalidToken, 400, "InvalidToken", "a refresh JWT is not an access token")
        }
        try checkNotExpired(claims)
        do {
            try await core.legacySessions.checkAccess(claims.id)
        } catch {
            throw reject(.invalidToken, 400, "InvalidToken", "the app-password session was ended")
        }
        guard let account = core.configuration.account(for: claims.subject) else {
            throw reject(.invalidToken, 400, "InvalidToken", "the token's account no longer exists")
        }
        return AuthenticatedCaller(account: account, scope: "atproto transition:generic", isAppPassword: true)
    }
}
