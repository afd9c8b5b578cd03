import ATProtoIdentity
import ATProtoSyntax
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import WireFormat

extension OAuthSessionManager {
    /// Refreshes under the keystore's lock for the session entry, re-reading the stored session first.
    func refreshUnderLock(did: DID, replacing staleAccessToken: String?) async throws -> OAuthSession {
        try await store.keystore.withLock(OAuthSession.entryName(did: did)) {
            guard let current = try store.session(did) else {
                throw OAuthError.signInNeeded("no session for \(did)")
            }
            if let staleAccessToken, current.accessToken != staleAccessToken {
                logger.debug("another caller already refreshed \(did)")
                return current
            }
            return try await refreshStored(current)
        }
    }

    private func refreshStored(_ current: OAuthSession) async throws -> OAuthSession {
        guard let refreshToken = current.refreshToken else {
            try store.delete(current.did)
            broadcaster.publish(.deleted(did: current.did, reason: .refreshRefused))
            throw OAuthError.signInNeeded("the session of \(current.did) has no refresh token")
        }
        let server = try await confirmIssuer(of: current)
        let key = try store.key(for: current.did)
        let response = try await postForm(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", current.clientID)],
            to: current.tokenEndpoint,
            key: key,
            purpose: "token refresh"
        )
        switch RefreshOutcome.classify(response, error: Self.oauthError(in: response)) {
        case .refused(let code, let description):
            try store.delete(current.did)
            broadcaster.publish(.deleted(did: current.did, reason: .refreshRefused))
            logger.info("the server refused the refresh of \(current.did); session deleted")
            throw OAuthError.refreshRefused(serverError: code, description: description)
        case .transient(let status, let code, let description):
            throw OAuthError.requestFailed(
                "the token refresh",
                status: status,
                serverError: code,
                description: description
            )
        case .refreshed:
            let tokens = try TokenResponse.checked(response.body)
            guard tokens.sub == current.did.rawValue else {
                throw OAuthError.subjectMismatch(
                    "the refreshed tokens are for \(tokens.sub ?? "nobody"), not \(current.did)"
                )
            }
            let issuedAt = now()
            var updated = current
            updated.pds = server.pds
            updated.accessToken = tokens.accessToken
            updated.accessTokenExpiresAt = tokens.lifetime.map { issuedAt.addingTimeInterval($0) }
            updated.refreshToken = tokens.refreshToken ?? current.refreshToken
            updated.scope = tokens.scope ?? current.scope
            updated.updatedAt = issuedAt
            // The server recomputes the grant on every refresh and may grant less (atproto.com/specs/permission).
            let newlyMissing = updated.permissions.missing(from: current.permissions)
            if !newlyMissing.isEmpty {
                logger.warning(
                    "the refresh of \(current.did) granted fewer permissions; no longer granted: \(newlyMissing)"
                )
            }
            // The old refresh token is spent: store the new one before anyone uses the new access token.
            try store.save(updated)
            broadcaster.publish(.updated(did: current.did))
            logger.debug("refreshed \(current.did)")
            return updated
        }
    }

    /// Re-resolves the DID afresh and checks that its PDS still names the session's issuer (atproto.com/specs/oauth, Tokens and Session Lifetime).
    private func confirmIssuer(of session: OAuthSession) async throws -> ResolvedAuthorizationServer {
        let identity = try await identityResolver.resolve(did: session.did, cachePolicy: .reload)
        let server = try await metadataResolver.resolve(pds: identity.pds)
        guard server.issuer == session.issuer else {
            throw OAuthError.issuerNotConfirmed(
                "\(session.did) is now served by \(server.issuer), not by \(session.issuer); sign in again"
            )
        }
        return server
    }
}
