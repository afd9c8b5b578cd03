package import ATProtoSyntax
import Foundation
import Keystore
package import OAuthMetadata

extension SessionManager {
    /// The confidential client's key set in this store.
    package nonisolated var clientKeySet: ClientKeySet { ClientKeySet(keystore: store.keystore) }

    /// The OAuth sessions bound to the client key `keyID`, unreadable sessions left out.
    package func sessions(boundTo keyID: String) async throws -> [Session] {
        try await store.sessionsSkippingUnreadable().sessions.filter { session in
            guard case .oauth(let grant) = session.credential else { return false }
            return grant.clientKeyID == keyID
        }
    }

    /// Removes a client key from the set.
    ///
    /// While sessions are bound to it, this is refused unless `force`: the authorization server ends every session
    /// whose key leaves the client's published set, so those sessions end here too, revoked first (best effort, while
    /// the key is still published), each leaving an ``EndedSessionRecord`` so that the account's next use says why.
    ///
    /// - Returns: the sessions that ended.
    /// - Throws: ``SessionError`` (usage) naming how many sessions use the key, when not forced.
    package func removeClientKey(_ keyID: String, force: Bool) async throws -> [Session] {
        let bound = try await sessions(boundTo: keyID)
        guard bound.isEmpty || force else {
            let count = bound.count == 1 ? "1 session uses" : "\(bound.count) sessions use"
            throw SessionError.invalidInput(
                "\(count) the client key \(keyID); removing it from the published keys ends them at the "
                    + "authorization server. Nothing was changed. Keep the key until they are signed in again with the "
                    + "current key, or remove it anyway with --force, which ends them here too."
            )
        }
        for session in bound {
            guard let revocation = try? await signOut(did: session.did), case .oauth(let grant) = session.credential
            else { continue }
            let record = EndedSessionRecord(
                session: session,
                clientID: grant.clientID,
                keyID: keyID,
                endedAt: now(),
                revocation: revocation
            )
            try? await record.save(to: store.keystore)
        }
        guard try await clientKeySet.remove(keyID) else {
            throw SessionError.invalidInput("The key set has no key with kid \(keyID).")
        }
        return bound
    }

    /// The record of a session a forced key removal ended, for the account `identifier` names (by DID, or by the
    /// handle it had); `nil` when there is none.
    package func endedSession(matching identifier: ATIdentifier) async -> EndedSessionRecord? {
        if case .did(let did) = identifier { return await EndedSessionRecord.load(did, from: store.keystore) }
        let records = (try? await EndedSessionRecord.all(in: store.keystore)) ?? []
        return records.filter { identifier.names(did: $0.did, handle: $0.handle) }.max { $0.endedAt < $1.endedAt }
    }

    /// Forgets the record of `did`'s session that a forced key removal ended.
    package func forgetEndedSession(did: DID) async throws {
        try await store.keystore.delete(EndedSessionRecord.entryName(did: did))
    }
}
