import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs a statement and reads its answer to the end.
    ///
    /// PostgresNIO answers `query` as soon as the server describes the result, which for `SELECT pg_advisory_lock(…)`
    /// is before the lock is granted: only reading every row waits for the statement to finish and lets its error
    /// (a lock timeout, a failed commit) surface here.
    func run(_ statement: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await query(statement, logger: logger) {}
    }
}
