import WireFormat

extension PostgresStore {
    /// Where the database is, how to reach it, and how long to wait; usually made from a `postgresql://` URL with
    /// ``init(url:)``.
    ///
    /// Its description, debug description and mirror never show the password.
    public struct Configuration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// How the server is reached.
        public enum Endpoint: Sendable, Hashable {
            /// A host name or IP address and a TCP port.
            case tcp(host: String, port: Int)
            /// The path of the server's Unix domain socket, such as `/var/run/postgresql/.s.PGSQL.5432`.
            case unixSocket(path: String)
        }

        /// How the server is reached.
        public var endpoint: Endpoint
        /// The database user.
        public var username: String
        /// The user's password, when the server asks for one; never shown.
        ///
        /// To a server that is not on this machine it is sent only over TLS that verifies the server
        /// (``TLSMode/verifyFull`` or ``TLSMode/verifyCA``), or without TLS when ``tls`` is ``TLSMode/disable``: with
        /// unverified TLS anyone on the path could pose as the server and ask for it in cleartext or as MD5, which
        /// PostgreSQL lets the server choose.
        public var password: String?
        /// A libpq password file (`host:port:database:user:password` lines, `0600`) that the URL names with
        /// `passfile`; ``PostgresStore/PasswordFile`` reads it.
        public var passwordFile: String?
        /// The database holding the store's tables.
        public var database: String
        /// The schema holding the store's tables, or `nil` for the schema named after the user when the user owns
        /// one, else `public` (where PostgreSQL's default `search_path`, `"$user", public`, puts them).
        ///
        /// Every connection searches this schema alone, whatever `search_path` the database or the role sets, so
        /// another schema put first cannot take the store's reads and writes; see ``PostgresStore``.
        public var schema: String?
        /// Whether and how TLS protects a TCP connection; Unix sockets never use it.
        public var tls: TLSMode
        /// A PEM file of the certificate authorities to trust instead of the system's, for `verify-ca` and
        /// `verify-full` (and for `require`, which then verifies as `verify-ca` does, as libpq does).
        public var rootCertificatePath: String?
        /// The name the connections show in `pg_stat_activity`.
        public var applicationName = "atoauth"
        /// The most connections the pool keeps open, and the most critical sections of
        /// ``PostgresStore/withLock(_:isolation:_:)`` that run at once, each on a connection of its own: a process
        /// opens at most twice this many.
        public var maximumConnections = 8
        /// How long opening a connection may take.
        public var connectTimeout: Duration = .seconds(10)
        /// How long one read or write may take, waiting for a pooled connection included.
        public var operationTimeout: Duration = .seconds(10)
        /// How long ``PostgresStore/withLock(_:isolation:_:)`` waits for another process to release a lock.
        public var lockTimeout: Duration = .seconds(30)

        /// Creates a configuration; the timeouts and pool size keep their defaults.
        public init(endpoint: Endpoint, username: String, password: String?, database: String, tls: TLSMode) {
            self.endpoint = endpoint
            self.username = username
            self.password = password
            self.database = database
            self.tls = tls
        }

        /// Names the database, server and user, never the password; safe to print (control characters removed).
        public var description: String {
            let database = TerminalText.sanitized(database, limit: 100)
            let username = TerminalText.sanitized(username, limit: 100)
            switch endpoint {
            case .tcp(let host, let port):
                let host = TerminalText.sanitized(host, limit: 255)
                let shown = host.contains(":") ? "[\(host)]" : host
                return "the PostgreSQL database \(database) on \(shown):\(port) (user \(username))"
            case .unixSocket(let path):
                let path = TerminalText.sanitized(path, limit: 255)
                return "the PostgreSQL database \(database) at the socket \(path) (user \(username))"
            }
        }

        /// Same as ``description``.
        public var debugDescription: String { description }

        /// A mirror that shows only ``description``, so `dump` does not print the password.
        public var customMirror: Mirror {
            Mirror(self, children: ["description": description])
        }
    }

    /// libpq's `sslmode`: whether a TCP connection uses TLS and what it verifies
    /// (postgresql.org/docs/current/libpq-ssl.html, Table 34.1).
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server insists; treated as ``prefer``.
        case allow
        /// TLS when the server offers it, without verifying the certificate; the default for a server on this
        /// machine.
        case prefer
        /// TLS always; the certificate is verified only against a given root certificate file.
        case require
        /// TLS always, with a certificate signed by a trusted authority, whatever host name it names.
        case verifyCA = "verify-ca"
        /// TLS always, with a trusted certificate naming the host connected to: the default for a server on
        /// another machine.
        case verifyFull = "verify-full"
    }
}
