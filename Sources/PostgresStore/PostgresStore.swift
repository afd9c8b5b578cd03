public import Foundation
public import Keystore
import Logging
import PostgresNIO
import Synchronization

/// A keystore in a PostgreSQL database, shared by every process and machine that uses the same database: for a
/// service that runs on several machines and acts for many accounts.
///
/// Every value is sealed with the store key before it is sent, exactly as ``EncryptedFileKeystore`` seals its files
/// (XChaCha20-Poly1305, the entry's name bound as associated data, the key from the same passphrase or key file), so
/// the database, its backups and its dumps never hold a token or a private key in the clear. The key never leaves
/// the process; every machine needs the same passphrase or a copy of the same key file.
///
/// The store creates its tables in an empty database and upgrades them when a newer atoauth opens it
/// (`atoauth_schema` holds the version); an older atoauth refuses a newer schema. Reads and writes go through a
/// pool of connections. ``withLock(_:isolation:_:)`` excludes every process using the database with a PostgreSQL
/// advisory lock, on a connection of its own whose transaction holds the critical section's writes (see there).
///
/// The tables live in one schema (``Configuration/schema``: by default the one named after the user when the user
/// owns it, else `public`), and every connection searches that schema alone, set when it starts: a `search_path`
/// that the database or the role sets cannot send the store's reads and writes to another schema's tables, and
/// PostgreSQL's own functions (`now()`, `pg_advisory_lock`, …) are always found in `pg_catalog` first
/// (postgresql.org/docs/current/ddl-schemas.html, 5.10.6).
///
/// Open it with ``withStore(configuration:keySource:logger:isolation:_:)``, which also runs and shuts down the pool.
public final class PostgresStore: Keystore {
    /// Where the database is and how it is reached.
    public let configuration: Configuration

    let client: PostgresClient
    let settings: ConnectionSettings
    let sealer: EntrySealer
    let logger: Logger
    let localLocks = NamedAsyncLock()
    /// Bounds the critical sections running at once, each with a connection of its own.
    let sectionSlots: NamedAsyncLock
    private let nextConnectionID = Atomic<Int>(1)

    init(
        configuration: Configuration,
        client: PostgresClient,
        settings: ConnectionSettings,
        sealer: EntrySealer,
        logger: Logger
    ) {
        self.configuration = configuration
        self.client = client
        self.settings = settings
        self.sealer = sealer
        self.logger = logger
        self.sectionSlots = NamedAsyncLock(capacity: configuration.maximumConnections)
    }

    /// Names the database in messages; never the password.
    var store: String { configuration.description }

    /// Returns the value stored under `name`, or `nil` when there is none.
    ///
    /// - Throws: ``KeystoreError/corrupted`` when the stored value fails authentication (modified, or copied from
    ///   another entry); ``PostgresStoreError`` when the database cannot be used.
    public func load(_ name: String) async throws -> Data? {
        try EntrySealer.validate(name: name)
        let (table, key) = EntryTable.locate(name)
        let (logger, limit) = (logger, EntrySealer.maximumSealedBytes)
        // A value larger than any entry may be is measured, not fetched: a table written by someone without the
        // key cannot make every instance read a gigabyte.
        let found = try await perform("reading from the store") { connection -> (Data?, Int)? in
            let rows = try await connection.query(
                """
                SELECT CASE WHEN octet_length(sealed) <= \(limit) THEN sealed END, octet_length(sealed)
                FROM \(unescaped: table.name) WHERE \(unescaped: table.keyColumn) = \(key)
                """,
                logger: logger
            )
            var found: (Data?, Int)?
            for try await row in rows.decode((Data?, Int).self) { found = row }
            return found
        }
        guard let (sealed, size) = found else { return nil }
        guard let sealed else { throw sealer.tooLarge(name, size: size) }
        return try sealer.open(sealed, as: name)
    }

    /// Seals `value` and stores it under `name`, replacing any previous value, with a new revision.
    public func save(_ value: Data, as name: String) async throws {
        let sealed = try sealer.seal(value, as: name)
        let (table, key) = EntryTable.locate(name)
        let logger = logger
        try await perform("writing to the store") { connection in
            try await connection.run(
                """
                INSERT INTO \(unescaped: table.name) (\(unescaped: table.keyColumn), sealed, revision, written_at)
                VALUES (\(key), \(sealed), nextval('atoauth_revisions'), now())
                ON CONFLICT (\(unescaped: table.keyColumn)) DO UPDATE
                SET sealed = excluded.sealed, revision = excluded.revision, written_at = excluded.written_at
                """,
                logger: logger
            )
        }
    }

    /// Removes the value stored under `name`; does nothing when there is none.
    public func delete(_ name: String) async throws {
        try EntrySealer.validate(name: name)
        let (table, key) = EntryTable.locate(name)
        let logger = logger
        try await perform("deleting from the store") { connection in
            try await connection.run(
                "DELETE FROM \(unescaped: table.name) WHERE \(unescaped: table.keyColumn) = \(key)",
                logger: logger
            )
        }
    }

    /// Returns the names of all stored entries, sorted.
    public func names() async throws -> [String] {
        let union = EntryTable.all
            .map { "SELECT '\($0.prefix)' || \($0.keyColumn) FROM \($0.name)" }
            .joined(separator: " UNION ALL ")
        let logger = logger
        let names = try await perform("listing the store") { connection -> [String] in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: union), logger: logger)
            var names: [String] = []
            for try await name in rows.decode(String.self) { names.append(name) }
            return names
        }
        return names.sorted()
    }

    /// The entry's revision, from a sequence every write draws from: one small read, no decryption.
    public func revision(of name: String) async throws -> EntryRevision? {
        let revision = try await column("revision", of: name, as: Int64.self)
        return revision.map { EntryRevision([$0]) } ?? .absent
    }

    /// One column of the row of the entry `name`, or `nil` when there is no such entry.
    private func column<Value: PostgresDecodable & Sendable>(
        _ column: String,
        of name: String,
        as type: Value.Type
    ) async throws -> Value? {
        try EntrySealer.validate(name: name)
        let (table, key) = EntryTable.locate(name)
        let logger = logger
        return try await perform("reading from the store") { connection -> Value? in
            let rows = try await connection.query(
                "SELECT \(unescaped: column) FROM \(unescaped: table.name) WHERE \(unescaped: table.keyColumn) = \(key)",
                logger: logger
            )
            var found: Value?
            for try await value in rows.decode(Value.self) { found = value }
            return found
        }
    }

    /// A new id for a dedicated connection, for PostgresNIO's logs.
    func connectionID() -> Int {
        nextConnectionID.add(1, ordering: .relaxed).newValue
    }
}
