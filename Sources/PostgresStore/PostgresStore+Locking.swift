import Keystore
import Logging
import PostgresNIO

extension PostgresStore {
    /// Runs `body` while holding the lock `name` across every process that uses this database.
    ///
    /// Within this process, callers of the same name queue in memory first, so a process asks the server for each
    /// name once at a time, and at most ``Configuration/maximumConnections`` sections run at once. Then a
    /// connection of its own (outside the pool) takes the session-level advisory lock
    /// `pg_advisory_lock(hashtextextended(name, seed))`, waiting at most the lock timeout, and opens a transaction.
    /// Every read and write of this store inside `body` runs on that connection, in that transaction: they see each
    /// other and are committed together when `body` returns or throws (as the file store keeps writes made before an
    /// error), also when the calling task was cancelled, or earlier at a ``checkpoint()``. Then the lock is released
    /// and the connection closed.
    ///
    /// A transaction that fails leaves nothing behind: when the connection is lost, the commit is refused, or one
    /// of its statements failed (even one whose error `body` caught), none of the writes made since the section
    /// began, or since its last checkpoint, are kept, and `withLock` (or ``checkpoint()``) throws. When the process
    /// dies or loses the connection, PostgreSQL rolls back what was not committed and releases the lock, so the next
    /// process goes on at once (postgresql.org/docs/current/explicit-locking.html, 13.3.5).
    ///
    /// A critical section inside another of the same store (with another name) takes its lock on the same
    /// connection and shares the transaction.
    ///
    /// - Throws: What `body` throws; ``PostgresStoreError`` of kind `lockTimeout` when another process held the
    ///   lock too long, or another kind when the database cannot be used (then `body` did not run, or its writes
    ///   were not kept when the commit failed).
    public func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        try EntrySealer.validate(name: name)
        if let section = CriticalSection.current, section.storeID == ObjectIdentifier(self) {
            return try await nested(name, in: section, body)
        }
        return try await localLocks.withLock(name) {
            try await sectionSlots.withLock("sections") { try await runSection(name, body) }
        }
    }

    private func runSection<T>(
        _ name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        let connection = try await dedicatedConnection("opening a connection for the lock '\(name)'")
        do {
            try await acquire(name, on: connection)
        } catch {
            try? await connection.close()
            throw error
        }
        let section = CriticalSection(storeID: ObjectIdentifier(self), connection: connection)
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await CriticalSection.$current.withValue(section) { try await body() })
        } catch {
            outcome = .failure(error)
        }
        // In a task of its own, so a cancelled caller still commits what `body` wrote, as the file store keeps it.
        let finished = await Task { await finish(name, on: connection) }.value
        let value = try outcome.get()
        if let finished { throw finished }
        return value
    }

    /// Commits the writes made so far in the current critical section and goes on holding its lock; outside a
    /// critical section it does nothing, since every write is committed at once there.
    ///
    /// A checkpoint that fails closes the section's connection, which releases its lock: every later statement of
    /// the section then fails, rather than run outside a transaction, and `withLock` throws.
    public func checkpoint() async throws {
        guard let section = CriticalSection.current, section.storeID == ObjectIdentifier(self) else { return }
        do {
            try await commit(on: section.connection)
            try await execute("BEGIN", on: section.connection, doing: "starting a transaction")
        } catch {
            try? await section.connection.close()
            throw error
        }
    }

    /// Commits the section's transaction, or throws when it was not committed: PostgreSQL answers the `COMMIT` of
    /// a transaction in which a statement failed by rolling it back, without an error.
    private func commit(on connection: PostgresConnection) async throws {
        let tag = try await execute("COMMIT", on: connection, doing: "committing")
        guard tag != "ROLLBACK" else {
            throw PostgresStoreError.serverError(
                store,
                message: "a statement of the critical section failed, so its transaction was rolled back and none "
                    + "of its writes were kept",
                sqlState: "25P02"
            )
        }
    }

    private func nested<T>(
        _ name: String,
        in section: CriticalSection,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        try await lock(name, on: section.connection)
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        _ = try? await execute(
            "SELECT pg_advisory_unlock(hashtextextended(\(name), \(LockKey.seed)))",
            on: section.connection,
            doing: "releasing the lock '\(name)'"
        )
        return try outcome.get()
    }

    /// Takes the advisory lock and opens the section's transaction.
    private func acquire(_ name: String, on connection: PostgresConnection) async throws {
        try await lock(name, on: connection)
        try await execute("BEGIN", on: connection, doing: "starting a transaction")
    }

    private func lock(_ name: String, on connection: PostgresConnection) async throws {
        do {
            // The server's lock_timeout ends the wait first; the limit here only guards against a silent connection.
            try await execute(
                "SELECT pg_advisory_lock(hashtextextended(\(name), \(LockKey.seed)))",
                on: connection,
                doing: "waiting for the lock '\(name)'",
                within: configuration.lockTimeout + configuration.operationTimeout,
                mapErrors: false
            )
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
            throw PostgresStoreError.lockTimeout(store, name: name, after: configuration.lockTimeout)
        } catch {
            throw PostgresStoreError.mapping(error, store: store, doing: "waiting for the lock '\(name)'")
        }
    }

    /// Commits, releases the lock and closes the connection; returns the error when the commit failed (the server
    /// then rolled back, and closing the connection released the lock).
    private func finish(_ name: String, on connection: PostgresConnection) async -> (any Error)? {
        var failure: (any Error)?
        do {
            try await commit(on: connection)
            _ = try? await execute(
                "SELECT pg_advisory_unlock(hashtextextended(\(name), \(LockKey.seed)))",
                on: connection,
                doing: "releasing the lock '\(name)'"
            )
        } catch {
            failure = error
        }
        try? await connection.close()
        return failure
    }
}
