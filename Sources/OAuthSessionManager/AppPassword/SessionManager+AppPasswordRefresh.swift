import ATProtoPermissions
import ATProtoSyntax
import Foundation
import HTTPTransport

extension SessionManager {
    /// The app-password side of a refresh: `com.atproto.server.refreshSession` with the refresh JWT as Bearer, and
    /// an answer that must be for the same account.
    func appPasswordRefresh(_ current: Session, _ grant: AppPasswordGrant) -> RefreshExchange {
        let now = self.now
        return RefreshExchange(
            name: "app-password session refresh",
            send: { refreshJwt in
                try await self.postLegacy(
                    grant.refreshEndpoint,
                    bearer: refreshJwt,
                    json: nil,
                    purpose: "app-password session refresh"
                )
            },
            classify: { RefreshOutcome.classifyAppPassword($0) },
            refused: { SessionError.appPasswordRefreshRefused(serverError: $0, message: $1) },
            adopt: { response in
                guard let answer = LegacySessionAnswer(response.body) else {
                    // Like an answer that never came: nothing of it can be read (a captive portal's page, say).
                    throw SessionError.networkFailure(
                        "While refreshing the session of \(current.displayName), the PDS's answer was not a session",
                        outcomeUnknown: true
                    )
                }
                guard answer.did == current.did.rawValue else {
                    throw SessionError.signInNeeded(
                        "the PDS's answer is a session of \(SessionError.printable(answer.did, limit: 80))"
                    )
                }
                let claims = LegacyJWTClaims(token: answer.accessJwt)
                var updated = current
                updated.accessToken = answer.accessJwt
                updated.refreshToken = answer.refreshJwt
                let refreshedAt = now()
                updated.accessTokenExpiresAt = claims?.expiry(issuedAt: refreshedAt)
                // A scope claim that is not RFC 6749 §3.3 tokens is ignored, as at sign-in.
                updated.scope = claims?.scope.flatMap { ScopeSet.isWellFormed($0) ? $0 : nil } ?? current.scope
                updated.updatedAt = refreshedAt
                return updated
            },
            discard: { response in
                guard let answer = LegacySessionAnswer(response.body) else { return }
                await self.endUnkeptLegacySession(answer.refreshJwt, pds: current.pds)
            },
            discardedWords: "the session was ended at the PDS"
        )
    }
}
