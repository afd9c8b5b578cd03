import Logging
import PostgresNIO

/// The store's tables and their version: created by the first process that opens an empty database, upgraded by
/// the first one of a newer atoauth, and refused by an older atoauth, which cannot know what changed.
enum Schema {
    /// The schema version this code creates and reads.
    static let version = 1

    /// The advisory lock that serializes creating and upgrading the schema.
    static let migrationLock = "atoauth schema migration"

    /// The statements that bring the schema from version `n - 1` to version `n`, by `n`.
    static let migrations: [Int: [String]] = [
        1: [
            "CREATE SEQUENCE atoauth_revisions",
            """
            CREATE TABLE atoauth_store_key (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                metadata bytea NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "COMMENT ON TABLE atoauth_store_key IS "
                + "'atoauth: how the store key is obtained (mode, Argon2id salt and limits) and a key check; no key'",
        ]
            + EntryTable.all.flatMap { table in
                [
                    table.creation,
                    "COMMENT ON TABLE \(table.name) IS 'atoauth: values sealed with the store key "
                        + "(XChaCha20-Poly1305, the entry name bound as associated data)'",
                ]
            }
            + [
                """
                CREATE VIEW atoauth_accounts AS
                SELECT s.did, s.written_at AS session_written_at, k.did IS NOT NULL AS has_dpop_key,
                       n.did IS NOT NULL AS refreshing
                FROM atoauth_sessions s
                LEFT JOIN atoauth_dpop_keys k USING (did)
                LEFT JOIN atoauth_refresh_notes n USING (did)
                """
            ]
    ]

    /// Checks the schema on `connection` and creates or upgrades it when it is older than ``version``.
    ///
    /// The common case, a current schema, costs two reads. Creating and upgrading run in one transaction under an
    /// advisory lock, so processes opening a new database at once create it once.
    ///
    /// - Throws: ``PostgresStoreError`` of kind `schemaTooNew` when a newer atoauth upgraded the schema, and of kind
    ///   `schemaDamaged` when the recorded version is one no atoauth writes (below zero).
    static func prepare(_ connection: PostgresConnection, store: String, logger: Logger) async throws {
        if let found = try await currentVersion(connection, logger: logger, store: store), found >= version {
            guard found == version else {
                throw PostgresStoreError.schemaTooNew(store, found: found, supported: version)
            }
            return
        }
        try await connection.run("BEGIN", logger: logger)
        do {
            try await connection.run(
                "SELECT pg_advisory_xact_lock(hashtextextended(\(migrationLock), \(LockKey.seed)))",
                logger: logger
            )
            try await connection.run(
                """
                CREATE TABLE IF NOT EXISTS atoauth_schema (
                    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                    version integer NOT NULL,
                    upgraded_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                logger: logger
            )
            let found = try await currentVersion(connection, logger: logger, store: store) ?? 0
            guard found <= version else {
                throw PostgresStoreError.schemaTooNew(store, found: found, supported: version)
            }
            for step in (found + 1)..<(version + 1) {
                for statement in migrations[step] ?? [] {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            if found < version {
                try await connection.run(
                    """
                    INSERT INTO atoauth_schema (version) VALUES (\(version))
                    ON CONFLICT (singleton) DO UPDATE SET version = excluded.version, upgraded_at = now()
                    """,
                    logger: logger
                )
                logger.info("atoauth schema of \(store) is now version \(version) (was \(found))")
            }
            try await connection.run("COMMIT", logger: logger)
        } catch {
            try? await connection.run("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// The recorded version; `0` when the table is empty, `nil` when it does not exist.
    ///
    /// - Throws: ``PostgresStoreError`` of kind `schemaDamaged` for a version below zero, which no atoauth writes:
    ///   migrating from it would run no step and then fail on tables that exist.
    private static func currentVersion(
        _ connection: PostgresConnection,
        logger: Logger,
        store: String
    ) async throws -> Int? {
        let exists = try await connection.query("SELECT to_regclass('atoauth_schema') IS NOT NULL", logger: logger)
        var found = false
        for try await value in exists.decode(Bool.self) { found = value }
        guard found else { return nil }
        let rows = try await connection.query("SELECT version FROM atoauth_schema", logger: logger)
        var version = 0
        for try await value in rows.decode(Int.self) { version = value }
        guard version >= 0 else { throw PostgresStoreError.schemaDamaged(store, found: version) }
        return version
    }
}
