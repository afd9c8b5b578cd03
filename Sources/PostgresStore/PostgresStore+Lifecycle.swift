public import Keystore
public import Logging
import PostgresNIO

extension PostgresStore {
    /// Opens the store, runs `body` with it, and closes every connection on every path.
    ///
    /// Opening connects once outside the pool, so that a server that is down, a wrong password, a missing database
    /// or a failed TLS handshake is reported as such; creates or upgrades the tables; and unlocks the store key
    /// (creating it, and its row, in an empty database). Then the connection pool runs until `body` returns.
    ///
    /// - Parameters:
    ///   - configuration: Where the database is; see ``Configuration/init(url:)``.
    ///   - keySource: The passphrase or key file of the store key, as for ``EncryptedFileKeystore``; every machine
    ///     sharing the database needs the same passphrase or a copy of the same key file.
    ///   - logger: Receives the schema changes and PostgresNIO's connection events; silent by default.
    ///   - isolation: The actor `body` runs on; callers normally leave the default, `#isolation`.
    ///   - body: What to do with the store; it must not keep the store beyond its return.
    /// - Returns: What `body` returns.
    /// - Throws: ``PostgresStoreError`` when the database cannot be used or its schema is newer than this code;
    ///   ``KeystoreError`` when the key source does not unlock the store; what `body` throws.
    public static func withStore<T>(
        configuration: Configuration,
        keySource: EncryptedFileKeystore.KeySource,
        logger: Logger = Logger(label: "atoauth.postgres", factory: { _ in SwiftLogNoOpLogHandler() }),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresStore) async throws -> T
    ) async throws -> T {
        let unpinned = try ConnectionSettings(configuration)
        let (sealer, schema) = try await open(configuration, settings: unpinned, keySource: keySource, logger: logger)
        let settings = unpinned.searching(schema)
        let client = PostgresClient(configuration: settings.pool, backgroundLogger: logger)
        let store = PostgresStore(
            configuration: configuration,
            client: client,
            settings: settings,
            sealer: sealer,
            logger: logger
        )
        let pool = Task { await client.run() }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body(store))
        } catch {
            outcome = .failure(error)
        }
        await close(pool, within: configuration.operationTimeout, logger: logger)
        return try outcome.get()
    }

    /// Stops the connection pool and waits for it to close its connections, but not beyond `limit`.
    ///
    /// A pool that does not finish (PostgresNIO 1.33's pool now and then never ends its `run()` after
    /// cancellation, with every connection already closed) is left to finish in the background rather than hold
    /// the caller forever. A cancelled caller does not wait at all.
    private static func close(_ pool: Task<Void, Never>, within limit: Duration, logger: Logger) async {
        pool.cancel()
        do {
            try await Deadline.run(limit, orThrow: PoolCloseTimeout()) { await pool.value }
        } catch is PoolCloseTimeout {
            logger.warning(
                "the PostgreSQL connection pool did not close within \(limit); it finishes in the background"
            )
        } catch {
            // Cancelled: the pool goes on closing in the background.
        }
    }

    /// Connects once outside the pool, finds the store's schema, prepares its tables and unlocks the key, within the
    /// connect, lock and operation timeouts together (creating the tables may wait for another process creating them).
    private static func open(
        _ configuration: Configuration,
        settings: ConnectionSettings,
        keySource: EncryptedFileKeystore.KeySource,
        logger: Logger
    ) async throws -> (EntrySealer, schema: String) {
        let store = configuration.description
        let limit = configuration.connectTimeout + configuration.lockTimeout + configuration.operationTimeout
        do {
            return try await Deadline.run(
                limit,
                orThrow: PostgresStoreError.timedOut(store, after: limit, doing: "opening the store")
            ) {
                let connection = try await PostgresConnection.connect(
                    configuration: settings.searching(configuration.schema ?? "pg_catalog").dedicated,
                    id: 0,
                    logger: logger
                )
                do {
                    let schema = try await Schema.locate(configuration.schema, on: connection, logger: logger)
                    try await Schema.prepare(connection, store: store, logger: logger)
                    let sealer = try await StoreKeyRow.unlock(
                        connection,
                        source: keySource,
                        store: store,
                        logger: logger
                    )
                    try? await connection.close()
                    return (sealer, schema)
                } catch {
                    try? await connection.close()
                    throw error
                }
            }
        } catch {
            throw PostgresStoreError.mapping(error, store: store, doing: "opening the store")
        }
    }
}

/// The connection pool did not close in time.
private struct PoolCloseTimeout: Error {}
