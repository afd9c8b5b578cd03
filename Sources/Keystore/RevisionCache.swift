import Synchronization

/// Values decoded from keystore entries, each kept with the revision (``Keystore/revision(of:)``) its entry was read
/// at: while the entry's revision stays the same, the value is served again without reading or decrypting the entry.
///
/// A store that cannot tell revisions (`nil`) keeps nothing here, so its entries are read every time.
///
/// The values are kept by entry name as `any Sendable`, not in a generic dictionary: the session store asks here on
/// every request, and a generic type of this module runs unspecialized in its users' modules.
package final class RevisionCache: Sendable {
    private let kept = Mutex<[String: (revision: EntryRevision, value: any Sendable)]>([:])

    package init() {}

    /// The value of the entry `name` in `keystore`: the kept one while the entry's revision is unchanged, else what
    /// `read` makes of the entry, then kept; `nil` when `read` finds none, which is not kept.
    ///
    /// The revision is taken before the read, so that a write in between costs one read more, never a stale value.
    package func value<Value: Sendable>(
        of name: String,
        in keystore: any Keystore,
        read: () async throws -> Value?
    ) async throws -> Value? {
        let revision = try await keystore.revision(of: name)
        if let revision, let kept = kept.withLock({ $0[name] }), kept.revision == revision,
            let value = kept.value as? Value
        {
            return value
        }
        guard let value = try await read() else { return nil }
        kept.withLock { kept in kept[name] = revision.map { (revision: $0, value: value) } }
        return value
    }

    /// Forgets what was kept of the entry `name`, after this process changed it.
    package func forget(_ name: String) {
        kept.withLock { $0[name] = nil }
    }
}
