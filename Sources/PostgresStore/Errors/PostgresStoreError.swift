public import Failures
import WireFormat

/// An error of a ``PostgresStore``: the database cannot be reached or refused, or its schema does not fit.
///
/// Errors are compared by ``code`` only. The ``description`` says what happened and what to do, names the database
/// as ``PostgresStore/Configuration/description`` does, and never contains a password or a stored value.
public struct PostgresStoreError: CategorizedError, Hashable {
    /// Which failure a ``PostgresStoreError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .invalidURL`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// The store URL cannot be used.
        case invalidURL
        /// Nothing answers at the address, or the name does not resolve.
        case unreachable
        /// The server refused the user or the password.
        case authenticationFailed
        /// The database does not exist on the server.
        case databaseMissing
        /// TLS could not be set up or the server's certificate was refused.
        case tlsFailed
        /// The URL would send the password to a server on another machine over TLS that does not verify it.
        case unverifiedServer
        /// A newer atoauth has upgraded the store's tables.
        case schemaTooNew
        /// The store's schema version is one no atoauth writes: the table was changed by hand.
        case schemaDamaged
        /// The database user may not read, write or create the store's tables.
        case permissionDenied
        /// The server did not answer in time.
        case timedOut
        /// The connection broke during an operation, such as when the server restarts.
        case connectionLost
        /// Another process held a lock for longer than the lock timeout.
        case lockTimeout
        /// The server refused an operation for another reason.
        case serverError
    }

    /// Which failure this is, whatever its details: `error.code == .invalidURL`.
    public let code: Code

    /// Says what happened and what to do about it.
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// Returns whether two errors have the same code, ignoring their description.
    public static func == (lhs: PostgresStoreError, rhs: PostgresStoreError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code of the error.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// `usage` when the mistake is in what was asked (the URL); `failed` for the database or the network.
    public var category: FailureCategory { [.invalidURL, .unverifiedServer].contains(code) ? .usage : .failed }

    /// The store URL cannot be used.
    public static let invalidURL = PostgresStoreError(.invalidURL, "The PostgreSQL store URL is invalid.")
    /// Nothing answers at the address, or the name does not resolve.
    public static let unreachable = PostgresStoreError(.unreachable, "The PostgreSQL server cannot be reached.")
    /// The server refused the user or the password.
    public static let authenticationFailed = PostgresStoreError(
        .authenticationFailed,
        "The PostgreSQL server refused the credentials."
    )
    /// The database does not exist on the server.
    public static let databaseMissing = PostgresStoreError(.databaseMissing, "The PostgreSQL database does not exist.")
    /// TLS could not be set up or the server's certificate was refused.
    public static let tlsFailed = PostgresStoreError(.tlsFailed, "TLS with the PostgreSQL server failed.")
    /// The URL would send the password to a server on another machine over TLS that does not verify it.
    public static let unverifiedServer = PostgresStoreError(
        .unverifiedServer,
        "The store URL would send the password to an unverified server."
    )
    /// A newer atoauth has upgraded the store's tables.
    public static let schemaTooNew = PostgresStoreError(.schemaTooNew, "The store's schema is newer than this atoauth.")
    /// The store's schema version is one no atoauth writes: the table was changed by hand.
    public static let schemaDamaged = PostgresStoreError(.schemaDamaged, "The store's schema version is damaged.")
    /// The database user may not read, write or create the store's tables.
    public static let permissionDenied = PostgresStoreError(
        .permissionDenied,
        "The database user lacks a privilege the store needs."
    )
    /// The server did not answer in time.
    public static let timedOut = PostgresStoreError(.timedOut, "The PostgreSQL server did not answer in time.")
    /// The connection broke during an operation, such as when the server restarts.
    public static let connectionLost = PostgresStoreError(.connectionLost, "The connection to PostgreSQL was lost.")
    /// Another process held a lock for longer than the lock timeout.
    public static let lockTimeout = PostgresStoreError(.lockTimeout, "Timed out waiting for a store lock.")
    /// The server refused an operation for another reason.
    public static let serverError = PostgresStoreError(.serverError, "PostgreSQL refused an operation.")
}

extension PostgresStoreError {
    static func invalidURL(_ reason: String) -> PostgresStoreError {
        PostgresStoreError(
            .invalidURL,
            "The PostgreSQL store URL is invalid: \(TerminalText.sanitized(reason, limit: 500)). Give it as "
                + "postgresql://user[:password]@host[:port]/database[?sslmode=verify-full]."
        )
    }

    static func passwordFile(_ path: String, _ reason: String) -> PostgresStoreError {
        PostgresStoreError(
            .invalidURL,
            "The PostgreSQL password file '\(TerminalText.sanitized(path))' \(reason); nothing was sent."
        )
    }

    static func unreachable(_ store: String, reason: String) -> PostgresStoreError {
        PostgresStoreError(
            .unreachable,
            "Could not connect to \(store): \(TerminalText.sanitized(reason)). Check that the server is running and that --store "
                + "(ATOAUTH_STORE) names it; nothing was changed."
        )
    }

    static func authenticationFailed(_ store: String, reason: String) -> PostgresStoreError {
        PostgresStoreError(
            .authenticationFailed,
            "\(store) refused the sign-in: \(TerminalText.sanitized(reason)). Check the user and password in the store URL "
                + "(or PGPASSWORD)."
        )
    }

    static func databaseMissing(_ store: String) -> PostgresStoreError {
        PostgresStoreError(
            .databaseMissing,
            "\(store) does not exist. Create it (createdb) or fix the database name in the store URL."
        )
    }

    static func tlsFailed(_ store: String, reason: String) -> PostgresStoreError {
        PostgresStoreError(
            .tlsFailed,
            "TLS with \(store) failed: \(TerminalText.sanitized(reason)). Check sslmode and sslrootcert in the store URL and the server's "
                + "certificate."
        )
    }

    static func unverifiedServer(_ store: String, mode: String) -> PostgresStoreError {
        PostgresStoreError(
            .unverifiedServer,
            "sslmode=\(mode) does not verify the certificate of \(store), so anyone on the path could pose as the "
                + "server and ask for the password in cleartext or as MD5, which PostgreSQL lets the server choose. "
                + "Leave sslmode out (verify-full, with the system's trust store), or use verify-full or verify-ca with "
                + "sslrootcert=<the authority's PEM file>; sslmode=disable sends it over a network you trust. "
                + "Nothing was sent."
        )
    }

    static func schemaTooNew(_ store: String, found: Int, supported: Int) -> PostgresStoreError {
        PostgresStoreError(
            .schemaTooNew,
            "The atoauth tables in \(store) have schema version \(found), but this atoauth knows versions up to "
                + "\(supported). Upgrade atoauth on this machine; nothing was changed."
        )
    }

    static func schemaDamaged(_ store: String, found: Int) -> PostgresStoreError {
        PostgresStoreError(
            .schemaDamaged,
            "The table atoauth_schema in \(store) records version \(found), which no atoauth writes: it was changed "
                + "by hand. Set it back to the version it had (\(Schema.version) for this atoauth) or restore the "
                + "database from a backup; nothing was changed."
        )
    }

    static func permissionDenied(_ store: String, reason: String) -> PostgresStoreError {
        PostgresStoreError(
            .permissionDenied,
            "The user may not use the atoauth tables in \(store): \(TerminalText.sanitized(reason)). Grant it the privileges, or let an "
                + "owner of the database run atoauth once to create them."
        )
    }

    /// `timeout` is `nil` when the server itself cancelled the statement (its `statement_timeout`).
    static func timedOut(_ store: String, after timeout: Duration?, doing what: String) -> PostgresStoreError {
        let limit = timeout.map { "within \(Self.seconds($0))" } ?? "within its statement timeout"
        return PostgresStoreError(
            .timedOut,
            "\(store) did not answer \(limit) while \(what). Check that it is running and not overloaded, then retry."
        )
    }

    static func connectionLost(_ store: String, doing what: String) -> PostgresStoreError {
        PostgresStoreError(
            .connectionLost,
            "The connection to \(store) was lost while \(what) (the server may be restarting). Retry in a moment."
        )
    }

    static func lockTimeout(_ store: String, name: String, after timeout: Duration) -> PostgresStoreError {
        PostgresStoreError(
            .lockTimeout,
            "Timed out after \(Self.seconds(timeout)) waiting for the lock '\(name)' in \(store). Another atoauth "
                + "process may be stuck holding it; it is released when that process ends. Retry later."
        )
    }

    static func serverError(_ store: String, message: String, sqlState: String) -> PostgresStoreError {
        PostgresStoreError(
            .serverError,
            "\(store) refused an operation: \(TerminalText.sanitized(message)) "
                + "(SQLSTATE \(TerminalText.sanitized(sqlState, limit: 5))). Check the server's log."
        )
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension PostgresStoreError {
    /// Where the failure lies: the caller's input for a database URL that cannot be used; otherwise the store,
    /// which is this machine's (wherever its server runs).
    public var origin: FailureOrigin {
        switch code {
        case .invalidURL, .unverifiedServer: .input
        case .unreachable, .authenticationFailed, .databaseMissing, .tlsFailed, .schemaTooNew, .schemaDamaged,
            .permissionDenied, .timedOut, .connectionLost, .lockTimeout, .serverError:
            .machine
        }
    }
}
