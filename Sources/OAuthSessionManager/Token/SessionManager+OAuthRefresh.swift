import ATProtoIdentity
import ATProtoSyntax
import Foundation
import HTTPTransport
import OAuthMetadata

extension SessionManager {
    /// The OAuth side of a refresh: the issuer is confirmed afresh, the `refresh_token` grant goes to the token
    /// endpoint with a DPoP proof (RFC 6749 §6, RFC 9449 §5), and the answer must be for the same account.
    func oauthRefresh(_ current: Session, _ grant: OAuthGrant) async throws -> RefreshExchange {
        let server = try await confirmIssuer(of: current, grant: grant)
        let key = try await store.key(for: current.did)
        let client = try await authenticator(keyID: grant.clientKeyID, clientID: grant.clientID, issuer: grant.issuer)
        let revocationEndpoint = server.authorizationServer.revocationEndpoint ?? grant.revocationEndpoint
        let now = self.now
        return RefreshExchange(
            name: "token refresh",
            send: { refreshToken in
                try await self.postForm(
                    [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", grant.clientID)],
                    to: grant.tokenEndpoint,
                    key: key,
                    purpose: "token refresh",
                    client: client
                )
            },
            classify: { RefreshOutcome.classify($0, error: Self.oauthError(in: $0)) },
            refused: { code, description in
                // A confidential session whose key left the client's published keys ends at the server; say which.
                guard let keyID = grant.clientKeyID else {
                    return SessionError.refreshRefused(serverError: code, description: description)
                }
                return SessionError.refreshRefused(
                    serverError: code,
                    description: (description.map { $0 + "; " } ?? "")
                        + "the session is bound to the client key \(keyID)"
                )
            },
            adopt: { response in
                let tokens = try TokenResponse.checked(response.body)
                guard tokens.sub == current.did.rawValue else {
                    throw SessionError.subjectMismatch(
                        "the refreshed tokens are for \(tokens.sub ?? "nobody"), not \(current.did)"
                    )
                }
                let issuedAt = now()
                var updated = current
                updated.pds = server.pds
                updated.accessToken = tokens.accessToken
                updated.accessTokenExpiresAt = tokens.lifetime.map { issuedAt.addingTimeInterval($0) }
                updated.refreshToken = tokens.refreshToken ?? current.refreshToken
                // A new refresh token has the lifetime the answer gives (or the profile's); a kept one keeps its own.
                if tokens.refreshToken != nil {
                    updated.refreshTokenExpiresAt = tokens.refreshTokenLifetime.map { issuedAt.addingTimeInterval($0) }
                }
                updated.scope = tokens.scope ?? current.scope
                updated.updatedAt = issuedAt
                return updated
            },
            discard: { response in
                await self.revokeTokens(
                    in: response.body,
                    endpoint: revocationEndpoint,
                    clientID: grant.clientID,
                    key: key,
                    client: client,
                    what: "a refresh that could not be kept"
                )
            },
            discardedWords: "they were revoked"
        )
    }

    /// Re-resolves the DID afresh and checks that its PDS still names the session's issuer (atproto.com/specs/oauth,
    /// Tokens and Session Lifetime).
    private func confirmIssuer(of session: Session, grant: OAuthGrant) async throws -> ResolvedAuthorizationServer {
        let identity = try await identityResolver(for: session).resolve(did: session.did, cachePolicy: .reload)
        let server = try await SessionError.carrying { try await metadataResolver.resolve(pds: identity.pds) }
        guard server.issuer == grant.issuer else {
            throw SessionError.issuerNotConfirmed(
                "\(session.did) is now served by \(server.issuer), not by \(grant.issuer); sign in again"
            )
        }
        return server
    }
}
