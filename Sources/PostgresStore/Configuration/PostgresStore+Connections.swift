import NIOCore
import NIOSSL
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The PostgresNIO settings for the pool and for the dedicated connections of critical sections.
struct ConnectionSettings: Sendable {
    private(set) var pool: PostgresClient.Configuration
    private(set) var dedicated: PostgresConnection.Configuration

    /// Builds both from `configuration`; reads the root certificate file once.
    ///
    /// - Throws: ``PostgresStoreError`` of kind `unverifiedServer` when a password would go to a server on another
    ///   machine over TLS that does not verify it, and of kind `tlsFailed` when the TLS settings cannot be used.
    init(_ configuration: PostgresStore.Configuration) throws {
        let store = configuration.description
        if configuration.password != nil, !configuration.endpoint.isThisMachine, !Self.verifiesServer(configuration),
            configuration.tls != .disable
        {
            throw PostgresStoreError.unverifiedServer(store, mode: configuration.tls.rawValue)
        }
        if let root = configuration.rootCertificatePath {
            try Self.checkRootCertificate(root, store: store)
        }
        let tls = Self.tlsConfiguration(configuration)
        var context: NIOSSLContext?
        if let tls {
            do {
                context = try NIOSSLContext(configuration: tls)
            } catch {
                throw PostgresStoreError.tlsFailed(
                    store,
                    reason: "the TLS settings cannot be used (is sslrootcert a readable PEM file?)"
                )
            }
        }
        let parameters = Self.startupParameters(configuration)
        // `allow` and `prefer` take TLS without insisting on it.
        let optionalTLS = [.allow, .prefer].contains(configuration.tls)
        switch configuration.endpoint {
        case .tcp(let host, let port):
            var pool = PostgresClient.Configuration(
                host: host,
                port: port,
                username: configuration.username,
                password: configuration.password,
                database: configuration.database,
                tls: tls.map { optionalTLS ? PostgresClient.Configuration.TLS.prefer($0) : .require($0) } ?? .disable
            )
            pool.options.connectTimeout = configuration.connectTimeout
            self.pool = Self.finish(pool, configuration, parameters)
            var dedicated = PostgresConnection.Configuration(
                host: host,
                port: port,
                username: configuration.username,
                password: configuration.password,
                database: configuration.database,
                tls: context.map { optionalTLS ? PostgresConnection.Configuration.TLS.prefer($0) : .require($0) }
                    ?? .disable
            )
            dedicated.options.connectTimeout = .milliseconds(Self.milliseconds(configuration.connectTimeout))
            dedicated.options.additionalStartupParameters = parameters
            self.dedicated = dedicated
        case .unixSocket(let path):
            var pool = PostgresClient.Configuration(
                unixSocketPath: path,
                username: configuration.username,
                password: configuration.password,
                database: configuration.database
            )
            pool.options.connectTimeout = configuration.connectTimeout
            self.pool = Self.finish(pool, configuration, parameters)
            var dedicated = PostgresConnection.Configuration(
                unixSocketPath: path,
                username: configuration.username,
                password: configuration.password,
                database: configuration.database
            )
            dedicated.options.connectTimeout = .milliseconds(Self.milliseconds(configuration.connectTimeout))
            dedicated.options.additionalStartupParameters = parameters
            self.dedicated = dedicated
        }
    }

    /// The same settings with `search_path` set to `schema` alone when each connection starts, which overrides what
    /// the database or the role sets: PostgreSQL then searches `pg_catalog` first for functions and operators, and
    /// `schema` for tables, and creates tables in `schema` (postgresql.org/docs/current/ddl-schemas.html, 5.10.3).
    func searching(_ schema: String) -> ConnectionSettings {
        let parameter = ("search_path", Schema.searchPath(schema))
        var settings = self
        settings.pool.options.additionalStartupParameters.append(parameter)
        settings.dedicated.options.additionalStartupParameters.append(parameter)
        return settings
    }

    private static func finish(
        _ pool: PostgresClient.Configuration,
        _ configuration: PostgresStore.Configuration,
        _ parameters: [(String, String)]
    ) -> PostgresClient.Configuration {
        var pool = pool
        pool.options.maximumConnections = max(1, configuration.maximumConnections)
        pool.options.additionalStartupParameters = parameters
        return pool
    }

    /// The application name, and the server-side bounds: `lock_timeout` bounds a wait for an advisory lock, and
    /// `statement_timeout` (the lock timeout plus one operation's) frees the server from any statement left behind.
    private static func startupParameters(_ configuration: PostgresStore.Configuration) -> [(String, String)] {
        [
            ("application_name", configuration.applicationName),
            ("lock_timeout", "\(milliseconds(configuration.lockTimeout))"),
            ("statement_timeout", "\(milliseconds(configuration.lockTimeout + configuration.operationTimeout))"),
        ]
    }

    /// libpq's meaning of each `sslmode` (postgresql.org/docs/current/libpq-ssl.html, 34.19.1).
    private static func tlsConfiguration(_ configuration: PostgresStore.Configuration) -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch configuration.tls {
        case .disable:
            return nil
        case .allow, .prefer:
            tls.certificateVerification = .none
        case .require:
            tls.certificateVerification = configuration.rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
        case .verifyFull:
            tls.certificateVerification = .fullVerification
        }
        if let root = configuration.rootCertificatePath {
            tls.trustRoots = .file(root)
        }
        return tls
    }

    /// Whether TLS checks the server's certificate against a trusted authority (libpq's `verify-ca` and
    /// `verify-full`, and `require` with a root certificate file, which libpq verifies as `verify-ca`).
    private static func verifiesServer(_ configuration: PostgresStore.Configuration) -> Bool {
        switch configuration.tls {
        case .verifyCA, .verifyFull: true
        case .require: configuration.rootCertificatePath != nil
        case .disable, .allow, .prefer: false
        }
    }

    /// Refuses a root certificate file that is not a regular file of at most 1 MiB, before reading it: a FIFO would
    /// block the read forever, a device or a huge file would fill memory.
    private static func checkRootCertificate(_ path: String, store: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw PostgresStoreError.tlsFailed(store, reason: "the sslrootcert file cannot be read (\(errnoText()))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw PostgresStoreError.tlsFailed(store, reason: "sslrootcert must name a regular PEM file")
        }
        guard status.st_size <= 1 << 20 else {
            throw PostgresStoreError.tlsFailed(store, reason: "the sslrootcert file is larger than 1 MiB")
        }
    }

    private static func errnoText() -> String {
        switch errno {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: "error \(errno)"
        }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
