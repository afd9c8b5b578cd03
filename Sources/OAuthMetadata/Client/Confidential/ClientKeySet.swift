public import Foundation
package import Keystore

/// One key of a confidential client's key set and where it is in its life (atproto.com/specs/oauth, Client
/// Authentication: a key must be published before it signs, and stay published while sessions use it).
public struct ClientKeyRecord: Sendable, Hashable, Codable {
    /// Where a key is in its life.
    public enum State: String, Sendable, Hashable, Codable {
        /// Published, not yet signing new sign-ins: the authorization server may still hold the old key set.
        case next
        /// Signs new sign-ins.
        case current
        /// Signs only the refreshes and revocations of the sessions bound to it, until it is removed.
        case retiring
    }

    /// The key's `kid`.
    public var keyID: String
    /// Its state at the time it was read.
    public var state: State
    /// When it was added to the set.
    public var addedAt: Date
    /// When it may start signing new sign-ins: the wait for servers to see the published set has passed.
    public var usableAt: Date
}

/// A confidential client's signing keys, kept in the store: each private key sealed under `client-key/<kid>` like
/// every other secret, and the set's states under `client-keys`.
///
/// A key is added as ``ClientKeyRecord/State/next``; once its wait has passed, the next sign-in makes it current
/// and the key it replaces retiring, so no sign-in is ever signed by a key the authorization server may not have
/// fetched yet (the reference server caches client metadata for 10 minutes).
package struct ClientKeySet: Sendable {
    /// How long a new key is published before it signs, by default: the reference server's metadata cache.
    package static let defaultPublishWait: TimeInterval = 600
    static let indexEntry = "client-keys"

    let keystore: any Keystore

    package init(keystore: any Keystore) {
        self.keystore = keystore
    }

    static func keyEntry(_ keyID: String) -> String { "client-key/\(keyID)" }

    /// The records, in the order they were added, with states as of `now` (a due `next` key shown as current).
    package func records(now: Date) async throws -> [ClientKeyRecord] {
        Self.promoted(try await storedRecords(), now: now)
    }

    /// Adds `key` as the next key, usable for sign-ins `wait` seconds from `now`; the first key of an empty set is
    /// usable at once, as no server can have fetched an older set.
    package func add(_ key: ClientKey, wait: TimeInterval, now: Date) async throws -> ClientKeyRecord {
        try await insert(key) { records in
            ClientKeyRecord(
                keyID: key.keyID,
                state: records.isEmpty ? .current : .next,
                addedAt: now,
                usableAt: records.isEmpty ? now : now.addingTimeInterval(max(0, wait))
            )
        }
    }

    /// Adds `key`, which the client already publishes, for the sign-ins that name it, without changing which key
    /// signs the others.
    ///
    /// In an empty set it is current, as any first key; else retiring (it signs only for the sessions bound to it),
    /// every other key keeping its state. A key made current here would sign every new sign-in before a server
    /// holding the old set can know it.
    package func addBeside(_ key: ClientKey, now: Date) async throws -> ClientKeyRecord {
        try await insert(key) { records in
            ClientKeyRecord(
                keyID: key.keyID,
                state: records.isEmpty ? .current : .retiring,
                addedAt: now,
                usableAt: now
            )
        }
    }

    /// Seals `key` and appends the record `make` gives for the records already there, under the set's lock.
    private func insert(
        _ key: ClientKey,
        _ make: ([ClientKeyRecord]) -> ClientKeyRecord
    ) async throws -> ClientKeyRecord {
        try await keystore.withLock(Self.indexEntry) {
            var records = try await storedRecords()
            guard !records.contains(where: { $0.keyID == key.keyID }) else {
                throw MetadataError.invalidInput("The key set already has a key with kid \(key.keyID).")
            }
            let record = make(records)
            try await keystore.save(key.privateJWK, as: Self.keyEntry(key.keyID))
            records.append(record)
            try await save(records)
            return record
        }
    }

    /// The key that signs a new sign-in: the current one, after promoting a `next` key whose wait has passed.
    package func signingKey(now: Date) async throws -> ClientKey {
        let keyID: String = try await keystore.withLock(Self.indexEntry) {
            let stored = try await storedRecords()
            let records = Self.promoted(stored, now: now)
            if records != stored { try await save(records) }
            guard let current = records.last(where: { $0.state == .current }) else {
                throw MetadataError.invalidInput(
                    "The client has no signing key yet: add one with `atoauth client keygen`, publish its JWKS in "
                        + "the client metadata, and sign in again."
                )
            }
            return current.keyID
        }
        guard let key = try await self.key(keyID) else {
            throw MetadataError.storedKeyUnreadable("the client key \(keyID) is listed but missing from the store")
        }
        return key
    }

    /// The key with `keyID`, whatever its state; `nil` when the set has none.
    package func key(_ keyID: String) async throws -> ClientKey? {
        guard let data = try await keystore.load(Self.keyEntry(keyID)) else { return nil }
        return try ClientKey(jwk: data, checkingKeyID: false)
    }

    /// Removes a key and its record; the caller has checked the sessions that use it.
    package func remove(_ keyID: String) async throws -> Bool {
        try await keystore.withLock(Self.indexEntry) {
            var records = try await storedRecords()
            guard let index = records.firstIndex(where: { $0.keyID == keyID }) else { return false }
            records.remove(at: index)
            try await save(records)
            try await keystore.delete(Self.keyEntry(keyID))
            return true
        }
    }

    /// The states after promoting the newest due `next` key to current, the earlier current keys turning retiring.
    static func promoted(_ records: [ClientKeyRecord], now: Date) -> [ClientKeyRecord] {
        guard let due = records.lastIndex(where: { $0.state == .next && $0.usableAt <= now }) else { return records }
        var records = records
        for index in records.indices where index != due && records[index].state == .current {
            records[index].state = .retiring
        }
        for index in records.indices where index < due && records[index].state == .next {
            records[index].state = .retiring
        }
        records[due].state = .current
        return records
    }

    private func storedRecords() async throws -> [ClientKeyRecord] {
        try await keystore.loadDecoded(
            [ClientKeyRecord].self,
            from: Self.indexEntry,
            decoder: Self.decoder,
            unreadable: MetadataError.storedKeyUnreadable("the client key set in the store is damaged")
        ) ?? []
    }

    private func save(_ records: [ClientKeyRecord]) async throws {
        try await keystore.save(try Self.encoder.encode(records), as: Self.indexEntry)
    }

    /// The store's JSON form: dates in seconds since 1970, keys sorted.
    private static var encoder: JSONEncoder { StoredJSON.encoder }
    private static var decoder: JSONDecoder { StoredJSON.decoder }
}
