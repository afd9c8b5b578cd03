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
            guard let current = try await store.session(did) else {
                throw OAuthError.signInNeeded("no session for \(did)")
            }
            if let staleAccessToken, current.accessToken != staleAccessToken {
                logger.debug("another caller already refreshed \(did)")
                return current
            }
            guard current.kind == .oauth else { return try await refreshAppPassword(current) }
            return try await refreshStored(current)
        }
    }

    private func refreshStored(_ current: OAuthSession) async throws -> OAuthSession {
        guard let refreshToken = current.refreshToken else {
            try await store.delete(current.did)
            broadcaster.publish(.deleted(did: current.did, reason: .refreshRefused))
            throw OAuthError.signInNeeded("the session of \(current.did) has no refresh token")
        }
        let journal = RefreshJournal(keystore: store.keystore)
        try await endIfInterrupted(current, refreshToken: refreshToken, journal: journal)
        let server = try await confirmIssuer(of: current)
        let key = try await store.key(for: current.did)
        let response = try await sendNoted(current, refreshToken: refreshToken, journal: journal) {
            try await postForm(
                [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", current.clientID)],
                to: current.tokenEndpoint,
                key: key,
                purpose: "token refresh"
            )
        }
        switch RefreshOutcome.classify(response, error: Self.oauthError(in: response)) {
        case .refused(let code, let description):
            try await deleteRefused(current)
            throw OAuthError.refreshRefused(serverError: code, description: description)
        case .transient(let status, let code, let description):
            await journal.end(current.did)
            throw OAuthError.requestFailed(
                "the token refresh",
                status: status,
                serverError: code,
                description: description
            )
        case .refreshed:
            // From here the old refresh token is spent: a failure must end the session, never keep the old token.
            func revokeAnswer() async {
                await revokeTokens(
                    in: response.body,
                    endpoint: server.authorizationServer.revocationEndpoint ?? current.revocationEndpoint,
                    clientID: current.clientID,
                    key: key,
                    what: "a refresh that could not be kept"
                )
            }
            let tokens: TokenResponse
            do {
                tokens = try TokenResponse.checked(response.body)
                guard tokens.sub == current.did.rawValue else {
                    throw OAuthError.subjectMismatch(
                        "the refreshed tokens are for \(tokens.sub ?? "nobody"), not \(current.did)"
                    )
                }
            } catch {
                await revokeAnswer()
                try? await end(current, "the server's answer to the refresh of \(current.did) failed a check")
                throw error
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
            if let failure = await saveRetrying(updated) {
                await revokeAnswer()
                try await end(
                    current,
                    "the refreshed tokens of \(current.did) could not be saved (\(failure)); they were revoked, since "
                        + "the old refresh token is spent"
                )
            }
            await journal.end(current.did)
            broadcaster.publish(.updated(did: current.did))
            logger.debug("refreshed \(current.did)")
            return updated
        }
    }

    /// Ends the session when an earlier refresh sent `refreshToken` and never settled: it may be spent, and a spent
    /// refresh token is never sent again.
    func endIfInterrupted(
        _ current: OAuthSession,
        refreshToken: String,
        journal: RefreshJournal
    ) async throws {
        guard await journal.wasInterrupted(current.did, refreshToken: refreshToken) else { return }
        try await end(
            current,
            "an earlier refresh of \(current.did) was cut off after its request was sent and before the new "
                + "tokens were saved, so its refresh token may be spent and was not sent again"
        )
    }

    /// Sends a refresh request under the journal's note that `refreshToken` is on its way; the note is removed when
    /// no answer came (the server did not say it took the token), and kept otherwise until the outcome is settled.
    func sendNoted(
        _ current: OAuthSession,
        refreshToken: String,
        journal: RefreshJournal,
        _ send: () async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try await journal.begin(current.did, refreshToken: refreshToken)
        do {
            return try await send()
        } catch {
            await journal.end(current.did)
            throw error
        }
    }

    /// Deletes a session whose refresh the server refused for good, and tells listeners.
    func deleteRefused(_ current: OAuthSession) async throws {
        try await store.delete(current.did)
        broadcaster.publish(.deleted(did: current.did, reason: .refreshRefused))
        logger.info("the server refused the refresh of \(current.did); session deleted")
    }

    /// Saves the session, trying three times (a full disk can free up, a lock can pass); the last error when all
    /// failed.
    func saveRetrying(_ session: OAuthSession) async -> (any Error)? {
        var failure: (any Error)?
        for attempt in 0..<3 {
            do {
                try await store.save(session)
                return nil
            } catch {
                failure = error
                try? await Task.sleep(for: .milliseconds(50 << attempt))
            }
        }
        return failure
    }

    /// Ends a session whose refresh token may be spent: deletes it, tells listeners, and throws `signInNeeded`.
    func end(_ session: OAuthSession, _ reason: String) async throws -> Never {
        try await store.delete(session.did)
        broadcaster.publish(.deleted(did: session.did, reason: .refreshRefused))
        logger.warning("session of \(session.did) ended: \(reason)")
        throw OAuthError.signInNeeded(reason)
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
