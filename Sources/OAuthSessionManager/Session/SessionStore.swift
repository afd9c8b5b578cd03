import ATProtoSyntax
import DPoPRequestExecutor
import Foundation
import Keystore
import OAuthMetadata

/// Reads and writes sessions, their DPoP keys and pending sign-ins in the keystore, as JSON inside its encryption.
///
/// A session or key read before is decrypted again only when its entry changed since (`RevisionCache`).
struct SessionStore: Sendable {
    let keystore: any Keystore
    private let entriesRead = RevisionCache()

    init(keystore: any Keystore) {
        self.keystore = keystore
    }

    func session(_ did: DID) async throws -> Session? {
        let name = Session.entryName(did: did)
        return try await entriesRead.value(of: name, in: keystore) {
            try await keystore.loadDecoded(
                Session.self,
                from: name,
                decoder: Self.decoder,
                unreadable: SessionError.storedSessionUnreadable("the stored session of \(did) cannot be decoded")
            )
        }
    }

    func sessions() async throws -> [Session] {
        var sessions: [Session] = []
        for name in try await keystore.names() where name.hasPrefix("session/") {
            guard let did = try? DID(validating: String(name.dropFirst("session/".count))) else { continue }
            if let session = try await session(did) { sessions.append(session) }
        }
        return sessions
    }

    /// Every session that can be read, and a report for each one that cannot.
    func sessionsSkippingUnreadable() async throws -> (sessions: [Session], unreadable: [UnreadableSession]) {
        var sessions: [Session] = []
        var unreadable: [UnreadableSession] = []
        for name in try await keystore.names() where name.hasPrefix("session/") {
            guard let did = try? DID(validating: String(name.dropFirst("session/".count))) else { continue }
            do {
                if let session = try await session(did) { sessions.append(session) }
            } catch let error as KeystoreError {
                unreadable.append(UnreadableSession(did: did, reason: error.description))
            } catch let error as SessionError {
                unreadable.append(UnreadableSession(did: did, reason: error.description))
            }
        }
        return (sessions, unreadable)
    }

    func save(_ session: Session) async throws {
        let name = Session.entryName(did: session.did)
        entriesRead.forget(name)
        try await keystore.save(try Self.encoder.encode(session), as: name)
    }

    func key(for did: DID) async throws -> DPoPKey {
        let name = Session.keyEntryName(did: did)
        let key = try await entriesRead.value(of: name, in: keystore) {
            try await keystore.load(name).map { try DPoPKey(persistedRepresentation: $0) }
        }
        guard let key else { throw SessionError.storedSessionUnreadable("the DPoP key of \(did) is missing") }
        return key
    }

    func saveKey(_ key: DPoPKey, for did: DID) async throws {
        let name = Session.keyEntryName(did: did)
        entriesRead.forget(name)
        try await keystore.save(key.persistedRepresentation, as: name)
    }

    /// What a new sign-in replaced: the account's previous session and key, each `nil` when it could not be read.
    struct Replaced: Sendable {
        var session: Session?
        var key: DPoPKey?
    }

    /// Stores a new sign-in's session and DPoP key in place of the account's previous ones, and clears any refresh
    /// note of the previous session; call it under the session entry's lock.
    ///
    /// When the session cannot be saved, the previous key is put back, so the previous session stays usable. An
    /// app-password session has no key (`nil`): the previous session's key is deleted once the session is saved.
    /// - Returns: the previous session and key, or `nil` when the account had no session here.
    func replace(with session: Session, key: DPoPKey?) async throws -> Replaced? {
        let replaced: Replaced?
        do {
            if let previous = try await self.session(session.did) {
                replaced = Replaced(session: previous, key: try? await self.key(for: previous.did))
            } else {
                replaced = nil
            }
        } catch {
            replaced = Replaced(session: nil, key: try? await self.key(for: session.did))
        }
        guard let key else {
            try await save(session)
            forget(session.did)
            try? await keystore.delete(Session.keyEntryName(did: session.did))
            await RefreshJournal(keystore: keystore).end(session.did)
            await EndedSessionRecord.clear(session.did, in: keystore)
            return replaced
        }
        try await saveKey(key, for: session.did)
        do {
            try await save(session)
        } catch {
            if let previousKey = replaced?.key { try? await saveKey(previousKey, for: session.did) }
            throw error
        }
        await RefreshJournal(keystore: keystore).end(session.did)
        await EndedSessionRecord.clear(session.did, in: keystore)
        return replaced
    }

    /// Deletes the session, its key, any refresh note, the record of a failed refresh and that of an earlier
    /// session ended by a key removal.
    func delete(_ did: DID) async throws {
        forget(did)
        try await keystore.delete(Session.entryName(did: did))
        try await keystore.delete(Session.keyEntryName(did: did))
        await RefreshJournal(keystore: keystore).end(did)
        await RefreshFailureRecord.clear(did, in: keystore)
        await EndedSessionRecord.clear(did, in: keystore)
    }

    func savePending(_ pending: PendingAuthorization) async throws {
        try await keystore.save(
            try Self.encoder.encode(pending),
            as: PendingAuthorization.entryName(state: pending.state)
        )
    }

    /// Loads and deletes the pending sign-in of `state` under its lock, so a state is used at most once; a state of
    /// another form than this client gives (a forged one, perhaps too long for an entry name) matches none.
    func consumePending(state: String) async throws -> PendingAuthorization? {
        guard OAuthState.isWellFormed(state) else { return nil }
        let name = PendingAuthorization.entryName(state: state)
        return try await keystore.withLock(name) {
            guard let data = try await keystore.load(name) else { return nil }
            try await keystore.delete(name)
            return try? Self.decoder.decode(PendingAuthorization.self, from: data)
        }
    }

    /// Deletes pending sign-ins older than their lifetime.
    func purgeExpiredPending(now: Date) async throws {
        for name in try await keystore.names() where name.hasPrefix("pending/") {
            // An entry that cannot be read now (a keystore error) is left alone; one that decrypts but is not a
            // pending sign-in is garbage.
            guard let data = try? await keystore.load(name) else { continue }
            guard let pending = try? Self.decoder.decode(PendingAuthorization.self, from: data) else {
                try await keystore.delete(name)
                continue
            }
            if pending.isExpired(now: now) { try await keystore.delete(name) }
        }
    }

    /// Forgets the session and key of `did` read before, after this process changed or deleted their entries.
    private func forget(_ did: DID) {
        entriesRead.forget(Session.entryName(did: did))
        entriesRead.forget(Session.keyEntryName(did: did))
    }

    static var encoder: JSONEncoder { StoredJSON.encoder }
    static var decoder: JSONDecoder { StoredJSON.decoder }
}
