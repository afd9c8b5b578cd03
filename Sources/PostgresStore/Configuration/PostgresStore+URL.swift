import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgresStore.Configuration {
    /// The parameters a URL's query may set, as libpq names them.
    static let urlParameters: Set<String> = [
        "host", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "connect_timeout", "application_name",
    ]

    /// The directory of the server's socket when a URL names no host, as Debian's libpq has it.
    static let defaultSocketDirectory = "/var/run/postgresql"

    /// Reads a libpq connection URL: `postgresql://[user[:password]@][host][:port][/dbname][?name=value&…]`
    /// (postgresql.org/docs/current/libpq-connect.html, 34.1.1.2).
    ///
    /// `postgres://` is accepted too. A host that starts with `/` (percent-encoded in the authority, or in the `host`
    /// parameter) is the directory of the server's Unix socket. Without a host, the socket in `/var/run/postgresql`
    /// is used; without a user, the name of the user running the process; without a database, the user's name.
    /// The parameters understood are `host`, `port`, `user`, `password`, `dbname`, `sslmode`, `sslrootcert`,
    /// `connect_timeout` (seconds) and `application_name`; any other is refused, so a misspelt `sslmode` cannot
    /// silently turn TLS off.
    ///
    /// - Throws: ``PostgresStoreError`` of kind `invalidURL`; its message never repeats the password.
    public init(url text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["postgresql", "postgres"].contains(scheme)
        else {
            throw PostgresStoreError.invalidURL("it must start with postgresql:// (or postgres://)")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.urlParameters.contains(item.name) else {
                throw PostgresStoreError.invalidURL(
                    "it has the unknown parameter '\(item.name)'; atoauth understands "
                        + Self.urlParameters.sorted().joined(separator: ", ")
                )
            }
            parameters[item.name] = item.value ?? ""
        }
        let port = try Self.port(components.port, parameter: parameters["port"])
        let host = try Self.host(components, parameter: parameters["host"])
        let username = parameters["user"] ?? components.user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.systemUser()
        guard let username, !username.isEmpty else {
            throw PostgresStoreError.invalidURL("it names no user, and the system user's name is unknown")
        }
        let path = components.percentEncodedPath.dropFirst(components.percentEncodedPath.hasPrefix("/") ? 1 : 0)
        let database = parameters["dbname"] ?? String(path).removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        guard !(database ?? username).contains("/") else {
            throw PostgresStoreError.invalidURL("its database name contains a '/'")
        }
        let endpoint: Endpoint =
            host.hasPrefix("/") ? .unixSocket(path: host + "/.s.PGSQL.\(port)") : .tcp(host: host, port: port)
        self.init(
            endpoint: endpoint,
            username: username,
            password: parameters["password"] ?? components.password,
            database: database ?? username,
            tls: try Self.tlsMode(parameters["sslmode"])
        )
        rootCertificatePath = parameters["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 }
        if let name = parameters["application_name"], !name.isEmpty { applicationName = name }
        if let seconds = parameters["connect_timeout"] {
            guard let value = Int(seconds), (1...3600).contains(value) else {
                throw PostgresStoreError.invalidURL("connect_timeout must be a whole number of seconds in 1–3600")
            }
            connectTimeout = .seconds(value)
        }
    }

    private static func port(_ authorityPort: Int?, parameter: String?) throws -> Int {
        if let parameter {
            guard let value = Int(parameter), (1...65535).contains(value) else {
                throw PostgresStoreError.invalidURL("its port must be in 1–65535")
            }
            return value
        }
        guard let authorityPort else { return 5432 }
        guard (1...65535).contains(authorityPort) else {
            throw PostgresStoreError.invalidURL("its port must be in 1–65535")
        }
        return authorityPort
    }

    private static func host(_ components: URLComponents, parameter: String?) throws -> String {
        if let parameter, !parameter.isEmpty { return parameter }
        guard let encoded = components.percentEncodedHost, !encoded.isEmpty else { return defaultSocketDirectory }
        guard let host = encoded.removingPercentEncoding else {
            throw PostgresStoreError.invalidURL("its host is not valid percent-encoded text")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { return String(host.dropFirst().dropLast()) }
        return host
    }

    private static func tlsMode(_ value: String?) throws -> PostgresStore.TLSMode {
        guard let value else { return .prefer }
        guard let mode = PostgresStore.TLSMode(rawValue: value) else {
            throw PostgresStoreError.invalidURL(
                "sslmode must be one of " + PostgresStore.TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
            )
        }
        return mode
    }

    private static func systemUser() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
