import ATProtoPermissions
import ATProtoSyntax
import Foundation
import HTTPTransport
import Keystore
import Logging

extension SessionManager {
    /// Refreshes under the keystore's lock for the session entry, re-reading the stored session first.
    func refreshUnderLock(did: DID, replacing staleAccessToken: String?) async throws -> Session {
        try await store.keystore.withLock(Session.entryName(did: did)) {
            // Waiting for the lock ends with a cancellation; once it is held, the refresh runs to its end whatever
            // becomes of its callers, so a rotated refresh token is never lost to a Ctrl-C.
            try await Task { try await self.refreshLocked(did: did, replacing: staleAccessToken) }.value
        }
    }

    /// The refresh itself, with the session entry's lock held: the stored session read again, and refreshed unless
    /// another caller already replaced `staleAccessToken`.
    private func refreshLocked(did: DID, replacing staleAccessToken: String?) async throws -> Session {
        guard let current = try await store.session(did) else {
            throw SessionError.signInNeeded("no session for \(did)")
        }
        if let staleAccessToken, current.accessToken != staleAccessToken {
            logger.debug("another caller already refreshed \(did)")
            return current
        }
        return try await refreshRotating(current) {
            switch current.credential {
            case .oauth(let grant): try await oauthRefresh(current, grant)
            case .appPassword(let grant): appPasswordRefresh(current, grant)
            }
        }
    }

    /// The one refresh routine for both kinds, called under the session entry's lock: the rotated tokens are saved
    /// before anyone uses them, and tokens that cannot be kept end the session here and at the server.
    ///
    /// An OAuth refresh token is single-use (atproto.com/specs/oauth, Tokens and Session Lifetime), so a note guards
    /// against sending a spent one twice. A token that may be sent again (``Credential/refreshTokenMayBeResent``)
    /// needs no note: a refresh that ends without new tokens stored keeps the session.
    private func refreshRotating(
        _ current: Session,
        exchange prepare: () async throws -> RefreshExchange
    ) async throws -> Session {
        guard let refreshToken = current.refreshToken else {
            try await end(current, "the session of \(current.displayName) has no refresh token")
        }
        let mayResend = current.credential.refreshTokenMayBeResent
        let journal = mayResend ? nil : RefreshJournal(keystore: store.keystore)
        if let journal { try await endIfInterrupted(current, refreshToken: refreshToken, journal: journal) }
        let exchange = try await prepare()
        try await journal?.begin(current.did, refreshToken: refreshToken)
        let response: HTTPResponse
        do {
            response = try await exchange.send(refreshToken)
        } catch {
            let error = SessionError.refreshing(error, account: current.displayName)
            guard let journal, Self.mayHaveReachedServer(error) else { try await keep(current, after: error) }
            try await markUnanswered(current, refreshToken: refreshToken, after: error, journal: journal)
        }
        switch exchange.classify(response) {
        case .refused(let code, let description):
            try await store.delete(current.did)
            broadcaster.publish(.deleted(did: current.did, reason: .refreshRefused))
            logger.info("the server refused the refresh of \(current.did); session deleted")
            throw exchange.refused(code, description)
        case .transient(let status, let code, let description):
            let failure = SessionError.requestFailed(
                "the \(exchange.name) of \(current.displayName)",
                status: status,
                serverError: code,
                description: description
            )
            try await keep(current, after: failure, recording: failure.description)
        case .refreshed:
            // From here an OAuth refresh token is spent: a failure must end the session, never keep the old token.
            let updated: Session
            do {
                updated = try exchange.adopt(response)
            } catch {
                // An answer that is no answer at all leaves a token that may be sent again as good as it was.
                if mayResend, (error as? SessionError)?.code == .networkFailure {
                    try await keep(current, after: error)
                }
                // The session ends here, so the caller learns to sign in again, with the check that failed.
                await exchange.discard(response)
                try await end(
                    current,
                    "the server's answer to the refresh of \(current.displayName) failed a check "
                        + "(\((error as? SessionError)?.reason ?? "\(error)")); \(exchange.discardedWords)"
                        + (mayResend ? "" : ", since the old refresh token is spent")
                )
            }
            // The server recomputes the grant on every refresh and may grant less (atproto.com/specs/permission).
            let newlyMissing = updated.permissions.missing(from: current.permissions)
            if !newlyMissing.isEmpty {
                logger.warning(
                    "the refresh of \(current.displayName) granted fewer permissions; no longer granted: \(newlyMissing)"
                )
            }
            if let failure = await saveRetrying(updated) {
                let notSaved = SessionError.sessionNotSaved(current.displayName, failure)
                // The stored token may be sent again, and the server answers it with these same tokens.
                if mayResend { try await keep(current, after: notSaved) }
                await exchange.discard(response)
                try await end(
                    current,
                    "\(notSaved.reason); \(exchange.discardedWords), since the old refresh token is spent"
                )
            }
            await RefreshJournal(keystore: store.keystore).end(current.did)
            await RefreshFailureRecord.clear(current.did, in: store.keystore)
            broadcaster.publish(.updated(did: current.did))
            logger.debug("refreshed the \(current.kind.rawValue) session of \(current.did)")
            return updated
        }
    }

    /// Keeps the stored session after a refresh that left its refresh token as good as it was: the note goes, the
    /// failure is recorded for `accounts status` and the doctor (as `recording`, or the error's reason), and `error`
    /// is thrown, saying that the session is kept when it is a ``SessionError``.
    private func keep(_ current: Session, after error: any Error, recording: String? = nil) async throws -> Never {
        await RefreshJournal(keystore: store.keystore).end(current.did)
        let reason =
            recording ?? (error as? SessionError)?.reason ?? (error as? TransportError).map { "\($0)" } ?? "\(error)"
        await RefreshFailureRecord(at: now(), reason: reason).save(current.did, to: store.keystore)
        guard var kept = error as? SessionError else { throw error }
        kept.sessionKept = true
        throw kept
    }

    /// Ends the session when an earlier refresh sent `refreshToken` and never settled: it may be spent, and a spent
    /// refresh token is never sent again.
    private func endIfInterrupted(
        _ current: Session,
        refreshToken: String,
        journal: RefreshJournal
    ) async throws {
        switch await journal.interruption(current.did, refreshToken: refreshToken) {
        case nil:
            return
        case .cutOff:
            try await end(
                current,
                "an earlier refresh of \(current.displayName) was cut off after its request was sent and before the "
                    + "new tokens were saved, so its refresh token may be spent and was not sent again"
            )
        case .unanswered:
            try await end(
                current,
                "the last refresh of \(current.displayName) got no answer in time (it timed out, or its connection "
                    + "broke after the request was sent), so the server may already have used its refresh token, "
                    + "which was not sent again"
            )
        }
    }

    /// Marks the note of a refresh request that failed without an answer and may have reached the server (a
    /// timeout, a connection cut after sending), then rethrows `error`: the server may have rotated the token, so the
    /// next refresh ends the session instead of sending it again.
    ///
    /// A request that certainly never reached the server (a refused destination or connection, a name that did not
    /// resolve, a failed TLS handshake) or that the server turned down for a DPoP nonce (RFC 9449 §8) left the token
    /// unused: the session is kept instead (``keep(_:after:)``).
    private func markUnanswered(
        _ current: Session,
        refreshToken: String,
        after error: any Error,
        journal: RefreshJournal
    ) async throws -> Never {
        await journal.markUnanswered(current.did, refreshToken: refreshToken)
        let warning =
            "the refresh of \(current.displayName) got no answer, and the server may have used its refresh token, "
            + "so that token will not be sent again: the next refresh ends the session"
        logger.warning("\(warning)")
        throw error
    }

    /// Whether a refresh request that failed may have reached the server; only a failure known to come before the
    /// request was sent, or an answer that refused it, says no.
    private static func mayHaveReachedServer(_ error: any Error) -> Bool {
        switch error {
        case let error as SessionError: error.outcomeUnknown
        case let error as TransportError: error.mayHaveReachedServer
        case is FetchError: false
        default: true
        }
    }

    /// Saves the session, trying three times (a full disk can free up, a lock can pass); the last error when all
    /// failed.
    private func saveRetrying(_ session: Session) async -> (any Error)? {
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
    private func end(_ session: Session, _ reason: String) async throws -> Never {
        try await store.delete(session.did)
        broadcaster.publish(.deleted(did: session.did, reason: .refreshRefused))
        // The error thrown tells the caller; a notice, below a warning, keeps a service's log without a front end
        // that shows warnings saying it twice.
        logger.notice("the session of \(session.displayName) ended: \(reason)")
        throw SessionError.signInNeeded(reason)
    }
}
