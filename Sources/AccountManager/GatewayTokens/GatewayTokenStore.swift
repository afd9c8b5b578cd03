package import ATProtoPermissions
package import ATProtoSyntax
import Crypto
package import Foundation
package import Keystore
import Synchronization

/// The named gateway tokens in the account store: one entry holding every token's record (its digest, never the
/// token), and one holding when each was last used, so that every gateway on a shared store honours the same tokens.
///
/// A gateway looks a token up on each request: the list is decoded again only when the store says the entry changed
/// (``Keystore/revision(of:)``), or on every request with a store that cannot tell, so a revocation applies on the
/// next request on every machine.
package struct GatewayTokenStore: Sendable {
    /// The entry holding the records.
    static let entry = "gateway/tokens"
    /// The entry holding the last uses.
    static let usedEntry = "gateway/tokens-used"
    /// How often a token's last use is written: at most once a minute, so that the store is not written on every
    /// request.
    static let lastUseInterval: TimeInterval = 60

    let store: any Keystore
    private let cache = Cache()

    package init(store: any Keystore) {
        self.store = store
    }

    /// Keeps `token` (its digest only) under `name`, and returns its record.
    ///
    /// - Throws: ``GatewayTokenError`` when the name is invalid or taken; the store's errors.
    package func create(
        name: String,
        token: String,
        accounts: [DID],
        scope: ScopeSet?,
        lifetime: Duration?,
        now: Date
    ) async throws -> GatewayTokenRecord {
        guard GatewayTokenRecord.isValidName(name) else { throw GatewayTokenError.invalidName(name) }
        guard !GatewayTokenRecord.reservedNames.contains(name) else { throw GatewayTokenError.reservedName(name) }
        let record = GatewayTokenRecord(
            name: name,
            digest: Self.digest(token),
            accounts: accounts,
            scope: scope.map(\.description),
            created: now,
            expires: lifetime.map { now.addingTimeInterval(TimeInterval($0.components.seconds)) }
        )
        try await store.withLock(Self.entry) {
            var records = try await load()
            guard !records.contains(where: { $0.name == name }) else { throw GatewayTokenError.nameTaken(name) }
            records.append(record)
            try await save(records)
        }
        return record
    }

    /// Every token, by name, with its last use.
    package func list() async throws -> [GatewayTokenListing] {
        let used = try await lastUses()
        return try await load().sorted { $0.name < $1.name }.map {
            GatewayTokenListing(record: $0, lastUsed: used[$0.name])
        }
    }

    /// Ends the token named `name`: the next request with it, on any gateway, gets 401.
    ///
    /// - Throws: ``GatewayTokenError/unknownName(_:)`` when there is none.
    package func revoke(_ name: String) async throws {
        try await store.withLock(Self.entry) {
            var records = try await load()
            guard let index = records.firstIndex(where: { $0.name == name }) else {
                throw GatewayTokenError.unknownName(name)
            }
            records.remove(at: index)
            try await save(records)
        }
        try await store.withLock(Self.usedEntry) {
            var used = try await lastUses()
            guard used.removeValue(forKey: name) != nil else { return }
            try await store.save(try JSONEncoder.tokens.encode(used), as: Self.usedEntry)
        }
    }

    /// The records, for a gateway to find the one whose ``GatewayTokenRecord/digest`` is the digest of the token a
    /// request carries.
    package func records() async throws -> [GatewayTokenRecord] { try await current() }

    /// Whether a use of the token named `name` at `now` is to be written with ``noteUse(of:at:)``.
    ///
    /// It is the first in ``lastUseInterval`` for this token in this process; cheap, so a request pays no more.
    package func isUseDue(of name: String, at now: Date) -> Bool {
        cache.lastWritten.withLock { written -> Bool in
            if let last = written[name], now.timeIntervalSince(last) < Self.lastUseInterval { return false }
            written[name] = now
            return true
        }
    }

    /// Writes that the token named `name` was used at `now`; ``isUseDue(of:at:)`` says when.
    package func noteUse(of name: String, at now: Date) async throws {
        try await store.withLock(Self.usedEntry) {
            var used = try await lastUses()
            used[name] = max(used[name] ?? now, now)
            try await store.save(try JSONEncoder.tokens.encode(used), as: Self.usedEntry)
        }
    }

    /// The records, decoded again only when the entry changed since they were last read.
    private func current() async throws -> [GatewayTokenRecord] {
        try await cache.records.value(of: Self.entry, in: store) { try await load() } ?? []
    }

    private func load() async throws -> [GatewayTokenRecord] {
        try await store.loadDecoded(
            [GatewayTokenRecord].self,
            from: Self.entry,
            decoder: .tokens,
            unreadable: GatewayTokenError.unreadable("the entry \(Self.entry) is not a token list")
        ) ?? []
    }

    private func save(_ records: [GatewayTokenRecord]) async throws {
        try await store.save(try JSONEncoder.tokens.encode(records), as: Self.entry)
    }

    private func lastUses() async throws -> [String: Date] {
        guard let data = try await store.load(Self.usedEntry) else { return [:] }
        return (try? JSONDecoder.tokens.decode([String: Date].self, from: data)) ?? [:]
    }

    /// The hex SHA-256 digest of `token`.
    package static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// What this process remembers: the records at a revision, and when it last wrote each token's last use.
    private final class Cache: Sendable {
        let records = RevisionCache()
        let lastWritten = Mutex<[String: Date]>([:])
    }
}

extension JSONEncoder {
    /// Dates as RFC 3339 text, keys sorted.
    fileprivate static var tokens: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    /// Dates as RFC 3339 text.
    fileprivate static var tokens: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension AccountManager {
    /// The named gateway tokens kept in this manager's store.
    package nonisolated func gatewayTokens() -> GatewayTokenStore {
        GatewayTokenStore(store: keystore)
    }
}
