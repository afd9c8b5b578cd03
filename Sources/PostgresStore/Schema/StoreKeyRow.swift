import Foundation
import Keystore
import Logging
import PostgresNIO

/// The row of `atoauth_store_key`: the metadata of the store key, as `keystore.json` holds it in the file store.
///
/// It says how the key is obtained (a passphrase's salt and Argon2id limits, or a key file) and holds a key check that
/// recognizes the key; it holds no key.
enum StoreKeyRow {
    /// Unlocks the store with `source`, creating the key and its row when the database has none.
    ///
    /// It never creates a key for a database that already holds entries, since a new key could not read them. When
    /// two processes create the row at once, one wins and the other unlocks with the winner's row.
    static func unlock(
        _ connection: PostgresConnection,
        source: EncryptedFileKeystore.KeySource,
        store: String,
        logger: Logger
    ) async throws -> EntrySealer {
        if let metadata = try await read(connection, logger: logger) {
            return try EntrySealer(metadata: metadata, source: source, location: store)
        }
        if try await holdsEntries(connection, logger: logger) {
            // Another process may have created the row, and then entries, since the first read: entries are only
            // written after their key's row, so read it again before calling it missing.
            guard let metadata = try await read(connection, logger: logger) else {
                throw EntrySealer.keyCheckMissing(location: store, keyCheck: "the row of atoauth_store_key")
            }
            return try EntrySealer(metadata: metadata, source: source, location: store)
        }
        let (sealer, metadata) = try EntrySealer.create(source: source, location: store, logger: logger)
        let inserted = try await connection.query(
            "INSERT INTO atoauth_store_key (metadata) VALUES (\(metadata)) ON CONFLICT DO NOTHING RETURNING true",
            logger: logger
        )
        var won = false
        for try await value in inserted.decode(Bool.self) { won = value }
        if won {
            logger.info("created the store key row of \(store)")
            return sealer
        }
        guard let metadata = try await read(connection, logger: logger) else {
            throw EntrySealer.keyCheckMissing(location: store, keyCheck: "the row of atoauth_store_key")
        }
        return try EntrySealer(metadata: metadata, source: source, location: store)
    }

    private static func read(_ connection: PostgresConnection, logger: Logger) async throws -> Data? {
        let rows = try await connection.query("SELECT metadata FROM atoauth_store_key", logger: logger)
        var metadata: Data?
        for try await value in rows.decode(Data.self) { metadata = value }
        return metadata
    }

    private static func holdsEntries(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let any = EntryTable.all.map { "EXISTS (SELECT 1 FROM \($0.name))" }.joined(separator: " OR ")
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT " + any), logger: logger)
        var found = false
        for try await value in rows.decode(Bool.self) { found = value }
        return found
    }
}
