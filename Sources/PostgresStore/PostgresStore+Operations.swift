import Logging
import PostgresNIO

extension PostgresStore {
    /// Runs one operation: inside a critical section of this store on its connection (so it joins the section's
    /// transaction), else on a pooled connection within the operation timeout; maps every failure to a clear error.
    @discardableResult
    func perform<T: Sendable>(
        _ what: String,
        _ operation: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let store = store
        let timeout = configuration.operationTimeout
        do {
            if let section = CriticalSection.current, section.storeID == ObjectIdentifier(self) {
                guard !section.connection.isClosed else { throw PostgresStoreError.connectionLost(store, doing: what) }
                return try await Deadline.run(timeout, orThrow: Self.timedOut(store, timeout, what)) {
                    try await operation(section.connection)
                }
            }
            let client = client
            return try await Deadline.run(timeout, orThrow: Self.timedOut(store, timeout, what)) {
                try await client.withConnection { connection in try await operation(connection) }
            }
        } catch let error as PostgresStoreError where error == .timedOut {
            if let section = CriticalSection.current, section.connection.isClosed {
                throw PostgresStoreError.connectionLost(store, doing: what)  // Closed while the statement waited.
            }
            throw await diagnose(error)
        } catch {
            throw PostgresStoreError.mapping(error, store: store, doing: what)
        }
    }

    /// Runs one statement on a connection of a critical section, within the operation timeout (or `limit`): a
    /// connection that has closed answers at once, and one that stopped answering at the limit.
    ///
    /// Failures become ``PostgresStoreError``s unless `mapErrors` is `false`, which leaves a `PSQLError` for the
    /// caller to read. Returns the server's command tag, such as `ROLLBACK` for a `COMMIT` of a failed transaction.
    @discardableResult
    func execute(
        _ statement: PostgresQuery,
        on connection: PostgresConnection,
        doing what: String,
        within limit: Duration? = nil,
        mapErrors: Bool = true
    ) async throws -> String {
        let (store, logger) = (store, logger)
        let limit = limit ?? configuration.operationTimeout
        do {
            guard !connection.isClosed else { throw PostgresStoreError.connectionLost(store, doing: what) }
            // The future-based query reads every row, as `run` does, and keeps the command tag.
            return try await Deadline.run(limit, orThrow: Self.timedOut(store, limit, what)) {
                try await connection.query(statement, logger: logger).get().metadata.command
            }
        } catch let error as PostgresStoreError where error == .timedOut && connection.isClosed {
            throw PostgresStoreError.connectionLost(store, doing: what)  // Closed while the statement waited.
        } catch {
            throw mapErrors ? PostgresStoreError.mapping(error, store: store, doing: what) : error
        }
    }

    /// Opens a connection of its own, outside the pool, within the connect timeout.
    func dedicatedConnection(_ what: String) async throws -> PostgresConnection {
        let (settings, logger, id, store) = (settings, logger, connectionID(), store)
        let limit = configuration.connectTimeout + .seconds(1)
        do {
            return try await Deadline.run(limit, orThrow: Self.timedOut(store, limit, what)) {
                try await PostgresConnection.connect(configuration: settings.dedicated, id: id, logger: logger)
            }
        } catch {
            throw PostgresStoreError.mapping(error, store: store, doing: what)
        }
    }

    /// After a timeout, tries one new connection: when even that fails, its error says why (the server is down,
    /// refuses the password) better than the timeout does.
    private func diagnose(_ timeout: PostgresStoreError) async -> any Error {
        do {
            let connection = try await dedicatedConnection("checking the server")
            try? await connection.close()
            return timeout
        } catch {
            return error
        }
    }

    private static func timedOut(_ store: String, _ timeout: Duration, _ what: String) -> PostgresStoreError {
        .timedOut(store, after: timeout, doing: what)
    }
}
