import Foundation

extension ThrowawayPostgres {
    /// A database of a throwaway server, each test its own so that parallel tests never meet.
    public struct Database: Sendable {
        /// Its name.
        public let name: String
        /// The URL reaching it through the Unix socket as the superuser, without a password.
        public let url: String
        /// The URL reaching it over TCP on 127.0.0.1 as the superuser, with the password, without TLS.
        public let tcpURL: String
    }

    /// Creates a new, empty database with a unique name.
    public func createDatabase() async throws -> Database {
        let name = "atoauth_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await execute("CREATE DATABASE \(name)", database: "postgres")
        return database(name)
    }

    /// Runs `body` with a new database, then drops it, also when `body` throws.
    public func withDatabase<T>(_ body: (Database) async throws -> T) async throws -> T {
        let database = try await createDatabase()
        do {
            let result = try await body(database)
            try await dropDatabase(database.name)
            return result
        } catch {
            try? await dropDatabase(database.name)
            throw error
        }
    }

    /// Drops the database `name`, ending any session still connected to it, so that its files are gone before the
    /// server's folder is removed.
    public func dropDatabase(_ name: String) async throws {
        try await execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", database: "postgres")
    }

    /// The URLs of the database `name`.
    public func database(_ name: String) -> Database {
        let socket = socketDirectory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketDirectory
        return Database(
            name: name,
            url: "postgresql://\(user)@/\(name)?host=\(socket)&port=\(port)",
            tcpURL: "postgresql://\(user):\(password)@127.0.0.1:\(port)/\(name)?sslmode=disable"
        )
    }

    /// Runs SQL with `psql` as the superuser and returns its unaligned, tuples-only output.
    @discardableResult
    public func execute(_ sql: String, database: String) async throws -> String {
        let result = try await CommandRunner.run(
            binaries.appendingPathComponent("psql"),
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", "\(port)", "-U", user,
                "-d", database, "-c", sql,
            ]
        )
        guard result.status == 0 else {
            throw ThrowawayPostgresError("psql failed: \(result.standardError)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `sql` in a `psql` session of its own, in one transaction, and returns while it runs.
    ///
    /// For a test that needs a lock held by another process. The test waits for what the session does
    /// (``execute(_:database:)`` on `pg_locks`), and ends it with ``endSessions(holdingAdvisoryLocksOn:)``, which
    /// leaves other databases alone.
    public func startSession(_ sql: String, database: String) throws -> ChildProcess {
        try ChildProcess(
            binaries.appendingPathComponent("psql"),
            ["-X", "-q", "-h", socketDirectory, "-p", "\(port)", "-U", user, "-d", database, "-c", sql]
        )
    }

    /// Ends the server's sessions on `database` that hold an advisory lock, as a lost connection would: their
    /// transactions roll back and the locks are freed.
    public func endSessions(holdingAdvisoryLocksOn database: String) async throws {
        try await execute(
            """
            SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """,
            database: database
        )
    }

    /// The whole database as `pg_dump` writes it: schema and data, as SQL text.
    public func dump(_ database: String) async throws -> String {
        let result = try await CommandRunner.run(
            binaries.appendingPathComponent("pg_dump"),
            ["-h", socketDirectory, "-p", "\(port)", "-U", user, "-d", database]
        )
        guard result.status == 0 else {
            throw ThrowawayPostgresError("pg_dump failed: \(result.standardError)")
        }
        return result.standardOutput
    }
}
