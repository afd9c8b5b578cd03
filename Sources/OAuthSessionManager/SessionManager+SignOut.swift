package import ATProtoSyntax
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore
import Logging

extension SessionManager {
    /// Signs out: revokes the tokens (RFC 7009, with DPoP), then deletes the session and its DPoP key even if the
    /// revocation failed (atproto.com/specs/oauth, Tokens and Session Lifetime).
    ///
    /// An app-password session is ended with `com.atproto.server.deleteSession` instead, best effort the same way.
    ///
    /// - Throws: ``SessionError`` of kind `signInNeeded` when there is no session for `did`.
    @discardableResult
    package func signOut(did: DID) async throws -> Revocation {
        try await store.keystore.withLock(Session.entryName(did: did)) {
            guard let session = try await store.session(did) else {
                throw SessionError.signInNeeded("no session for \(did)")
            }
            let result = await revokeTokens(of: session, key: try? await store.key(for: did))
            try await store.delete(did)
            broadcaster.publish(.deleted(did: did, reason: .signedOut))
            return result
        }
    }

    /// Deletes the session and DPoP key of `did` without reading them, for a session that cannot be read.
    ///
    /// Nothing is revoked, since the tokens cannot be read; they expire at the authorization server.
    package func discardSession(did: DID) async throws {
        try await store.keystore.withLock(Session.entryName(did: did)) {
            try await store.delete(did)
            broadcaster.publish(.deleted(did: did, reason: .signedOut))
        }
    }

    /// Ends an app-password session at its PDS (`com.atproto.server.deleteSession`), best effort.
    ///
    /// After a failed refresh, the stored refresh JWT may have been used by a refresh whose answer was lost: the PDS
    /// then holds a JWT that replaced it and that nobody has, and the reference PDS's `deleteSession` with the used
    /// one deletes only the used one's record. So the JWT is first refreshed (a used one is answered again, with the
    /// same replacement, for two hours), and the session is ended with the JWT the answer carries.
    private func deleteAppPasswordSession(_ session: Session, _ grant: AppPasswordGrant) async -> Revocation {
        guard var refreshJwt = session.refreshToken else {
            return .failed(reason: "the session of \(session.did) has no refresh token to end it with")
        }
        if await RefreshFailureRecord.load(session.did, from: store.keystore) != nil,
            let current = await currentRefreshJWT(refreshJwt, of: session, grant)
        {
            refreshJwt = current
        }
        do {
            try await deleteLegacySession(refreshJwt: refreshJwt, endpoint: grant.deleteEndpoint)
            return .revoked
        } catch {
            logger.info("session deletion failed for \(session.did): \(error)")
            return .failed(reason: "\(error)")
        }
    }

    /// The refresh JWT the PDS answers a refresh with `refreshJwt` with, or `nil` when no session of the account came:
    /// the refresh routine's own exchange, its answer read and checked the same way, and not stored.
    private func currentRefreshJWT(
        _ refreshJwt: String,
        of session: Session,
        _ grant: AppPasswordGrant
    ) async -> String? {
        let exchange = appPasswordRefresh(session, grant)
        guard let response = try? await exchange.send(refreshJwt), response.isSuccess else { return nil }
        return (try? exchange.adopt(response))?.refreshToken
    }

    /// Revokes, best effort, the grant of a session that a new sign-in replaced; `nil` when there was none.
    func revokeReplaced(_ replaced: SessionStore.Replaced?) async -> Revocation? {
        guard let replaced else { return nil }
        guard let session = replaced.session else {
            return .failed(reason: "the previous session could not be read, so its tokens could not be revoked")
        }
        return await revokeTokens(of: session, key: replaced.key)
    }

    private func revokeTokens(of session: Session, key: DPoPKey?) async -> Revocation {
        let grant: OAuthGrant
        switch session.credential {
        case .appPassword(let appPassword): return await deleteAppPasswordSession(session, appPassword)
        case .oauth(let oauth): grant = oauth
        }
        guard let endpoint = grant.revocationEndpoint else { return .notSupported }
        guard let key else { return .failed(reason: "the DPoP key of \(session.did) could not be read") }
        do {
            let client = try await authenticator(
                keyID: grant.clientKeyID,
                clientID: grant.clientID,
                issuer: grant.issuer
            )
            if let refreshToken = session.refreshToken {
                try await revoke(
                    token: refreshToken,
                    hint: "refresh_token",
                    endpoint: endpoint,
                    clientID: grant.clientID,
                    key: key,
                    client: client
                )
            }
            try await revoke(
                token: session.accessToken,
                hint: "access_token",
                endpoint: endpoint,
                clientID: grant.clientID,
                key: key,
                client: client
            )
            return .revoked
        } catch {
            // The caller gets the reason in the result and reports it; a warning here would say it twice.
            logger.info("revocation failed for \(session.did): \(error)")
            return .failed(reason: "\(error)")
        }
    }
}
