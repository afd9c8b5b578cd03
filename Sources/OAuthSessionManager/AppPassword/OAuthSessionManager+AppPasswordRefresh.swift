import ATProtoSyntax
import Foundation
import HTTPTransport

extension OAuthSessionManager {
    /// Refreshes an app-password session with `com.atproto.server.refreshSession` (the refresh JWT as Bearer);
    /// called under the session entry's lock, after the stored session was read again.
    ///
    /// The refresh JWT is single-use like an OAuth refresh token: the same note guards against sending a spent one
    /// twice, the new JWTs are saved before use, and a save that fails ends the session here and at the PDS.
    func refreshAppPassword(_ current: OAuthSession) async throws -> OAuthSession {
        guard let refreshJwt = current.refreshToken else {
            try await end(current, "the app-password session of \(current.did) has no refresh token")
        }
        let journal = RefreshJournal(keystore: store.keystore)
        try await endIfInterrupted(current, refreshToken: refreshJwt, journal: journal)
        let response = try await sendNoted(current, refreshToken: refreshJwt, journal: journal) {
            try await postLegacy(
                current.tokenEndpoint,
                bearer: refreshJwt,
                json: nil,
                purpose: "app-password session refresh"
            )
        }
        switch RefreshOutcome.classifyAppPassword(response) {
        case .refused(let code, let message):
            try await deleteRefused(current)
            throw OAuthError.appPasswordRefreshRefused(serverError: code, message: message)
        case .transient(let status, let code, let message):
            await journal.end(current.did)
            throw OAuthError.requestFailed(
                "the app-password session refresh",
                status: status,
                serverError: code,
                description: message
            )
        case .refreshed:
            // From here the old refresh JWT is spent: a failure must end the session, never keep the old one.
            guard let answer = LegacySessionAnswer(response.body), answer.did == current.did.rawValue else {
                if let answer = LegacySessionAnswer(response.body) {
                    await endUnkeptLegacySession(answer.refreshJwt, pds: current.pds)
                }
                try await end(current, "the PDS's answer to the refresh of \(current.did) failed a check")
            }
            let issuedAt = now()
            var updated = current
            updated.accessToken = answer.accessJwt
            updated.refreshToken = answer.refreshJwt
            let claims = LegacyJWTClaims(token: answer.accessJwt)
            updated.accessTokenExpiresAt = claims?.expiresAt
            updated.scope = claims?.scope ?? current.scope
            updated.updatedAt = issuedAt
            if let failure = await saveRetrying(updated) {
                await endUnkeptLegacySession(answer.refreshJwt, pds: current.pds)
                try await end(
                    current,
                    "the refreshed tokens of \(current.did) could not be saved (\(failure)); the session was ended "
                        + "at the PDS, since the old refresh token is spent"
                )
            }
            await journal.end(current.did)
            broadcaster.publish(.updated(did: current.did))
            logger.debug("refreshed the app-password session of \(current.did)")
            return updated
        }
    }
}
