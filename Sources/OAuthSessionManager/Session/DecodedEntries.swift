import ATProtoSyntax
import DPoPRequestExecutor
import Keystore
import Synchronization

/// The sessions and DPoP keys this process decoded, each with the store revision it was read at, so that reading an
/// unchanged entry again costs a revision check (one `stat` for the file store), not a decryption.
///
/// A store that cannot tell revisions (`revision(of:)` is `nil`) is read every time.
final class DecodedEntries: Sendable {
    private let sessions = Mutex<[DID: (revision: EntryRevision, session: Session)]>([:])
    private let keys = Mutex<[DID: (revision: EntryRevision, key: DPoPKey)]>([:])

    func session(_ did: DID, at revision: EntryRevision?) -> Session? {
        guard let revision else { return nil }
        return sessions.withLock { $0[did] }.flatMap { $0.revision == revision ? $0.session : nil }
    }

    func key(_ did: DID, at revision: EntryRevision?) -> DPoPKey? {
        guard let revision else { return nil }
        return keys.withLock { $0[did] }.flatMap { $0.revision == revision ? $0.key : nil }
    }

    /// Keeps `session`, read at `revision` (taken before the read: a write in between only costs a read more).
    func keep(_ session: Session, at revision: EntryRevision?) {
        sessions.withLock { kept in kept[session.did] = revision.map { (revision: $0, session: session) } }
    }

    func keep(_ key: DPoPKey, of did: DID, at revision: EntryRevision?) {
        keys.withLock { kept in kept[did] = revision.map { (revision: $0, key: key) } }
    }

    /// Forgets what was kept of `did`, after this process changed its entries.
    func forget(_ did: DID) {
        sessions.withLock { $0[did] = nil }
        keys.withLock { $0[did] = nil }
    }
}
