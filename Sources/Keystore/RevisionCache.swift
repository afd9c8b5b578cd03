import Synchronization

/// Values decoded from keystore entries, each kept with the revision (``Keystore/revision(of:)``) its entry was read
/// at: while the entry's revision stays the same, the value is served again without reading or decrypting the entry.
///
/// A store that cannot tell revisions (`nil`) keeps nothing here, so its entries are read every time.
package final class RevisionCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let kept = Mutex<[Key: (revision: EntryRevision, value: Value)]>([:])

    package init() {}

    /// The value kept for `key`, when it was read at `revision`.
    package func value(for key: Key, at revision: EntryRevision?) -> Value? {
        guard let revision else { return nil }
        return kept.withLock { $0[key] }.flatMap { $0.revision == revision ? $0.value : nil }
    }

    /// Keeps `value` for `key`, read at `revision`: taken before the read, so that a write in between costs one read
    /// more, never a stale value.
    package func keep(_ value: Value, for key: Key, at revision: EntryRevision?) {
        kept.withLock { kept in kept[key] = revision.map { (revision: $0, value: value) } }
    }

    /// Forgets what was kept for `key`, after this process changed its entry.
    package func forget(_ key: Key) {
        kept.withLock { $0[key] = nil }
    }
}

extension RevisionCache where Key == String {
    /// The value of the entry `name` of `keystore`: the kept one while the entry's revision is unchanged, else what
    /// `read` makes of it, then kept.
    package func value(
        of name: String,
        in keystore: any Keystore,
        read: () async throws -> Value
    ) async throws -> Value {
        let revision = try await keystore.revision(of: name)
        if let kept = value(for: name, at: revision) { return kept }
        let value = try await read()
        keep(value, for: name, at: revision)
        return value
    }
}
