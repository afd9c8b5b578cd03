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
        let settings = try ConnectionSettings(configuration)
        let sealer = try await open(configuration, settings: settings, keySource: keySource, logger: logger)
        let client = PostgresClient(configuration: settings.pool, backgroundLogger: logger)
        let store = PostgresStore(
            configuration: configuration,
            client: client,
            settings: settings,
            sealer: sealer,
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }

    /// Connects once outside the pool, prepares the schema and unlocks the key, within the connect, lock and
    /// operation timeouts together (creating the schema may wait for another process creating it).
    private static func open(
        _ configuration: Configuration,
        settings: ConnectionSettings,
        keySource: EncryptedFileKeystore.KeySource,
        logger: Logger
    ) async throws -> EntrySealer {
        let store = configuration.description
        let limit = configuration.connectTimeout + configuration.lockTimeout + configuration.operationTimeout
        do {
            return try await Deadline.run(
                limit,
                orThrow: PostgresStoreError.timedOut(store, after: limit, doing: "opening the store")
            ) {
                let connection = try await PostgresConnection.connect(
                    configuration: settings.dedicated,
                    id: 0,
                    logger: logger
                )
                do {
                    try await Schema.prepare(connection, store: store, logger: logger)
                    let sealer = try await StoreKeyRow.unlock(
                        connection,
                        source: keySource,
                        store: store,
                        logger: logger
                    )
                    try? await connection.close()
                    return sealer
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
