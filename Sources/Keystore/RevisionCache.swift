import Synchronization

/// Values decoded from keystore entries, each kept with the revision (``Keystore/revision(of:)``) its entry was read
/// at: while the entry's revision stays the same, the value is served again without reading or decrypting the entry.
///
/// A store that cannot tell revisions (`nil`) keeps nothing here, so its entries are read every time.
package final class RevisionCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let kept = Mutex<[Key: (revision: EntryRevision, value: Value)]>([:])

    package init() {}

    /// The value of `key`, whose entry is `name` in `keystore`: the kept one while the entry's revision is unchanged,
    /// else what `read` makes of the entry, then kept; `nil` when `read` finds none, which is not kept.
    ///
    /// The revision is taken before the read, so that a write in between costs one read more, never a stale value.
    package func value(
        for key: Key,
        entry name: String,
        in keystore: any Keystore,
        read: () async throws -> Value?
    ) async throws -> Value? {
        let revision = try await keystore.revision(of: name)
        if let revision, let kept = kept.withLock({ $0[key] }), kept.revision == revision { return kept.value }
        guard let value = try await read() else { return nil }
        kept.withLock { kept in kept[key] = revision.map { (revision: $0, value: value) } }
        return value
    }

    /// Forgets what was kept for `key`, after this process changed its entry.
    package func forget(_ key: Key) {
        kept.withLock { $0[key] = nil }
    }
}
