import Foundation
import WireFormat

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
        "host", "port", "user", "password", "passfile", "dbname", "sslmode", "sslrootcert", "connect_timeout",
        "application_name",
    ]

    /// The directory of the server's socket when a URL names no host, as Debian's libpq has it.
    static let defaultSocketDirectory = "/var/run/postgresql"

    /// Reads a libpq connection URL: `postgresql://[user[:password]@][host][:port][/dbname][?name=value&…]`
    /// (postgresql.org/docs/current/libpq-connect.html, 34.1.1.2).
    ///
    /// `postgres://` is accepted too. A host that starts with `/` (percent-encoded in the authority, or in the `host`
    /// parameter) is the directory of the server's Unix socket. Without a host, the socket in `/var/run/postgresql`
    /// is used; without a user, the name of the user running the process; without a database, the user's name.
    /// The parameters understood are `host`, `port`, `user`, `password`, `passfile`, `dbname`, `sslmode`,
    /// `sslrootcert` (a PEM file, or `system` for the system's trust store), `connect_timeout` (seconds) and
    /// `application_name`; any other is refused, so a misspelt `sslmode` cannot silently turn TLS off, and so is a
    /// repeated one, so `sslmode=verify-full&sslmode=disable` cannot either. Without `sslmode`, a host other than
    /// this machine gets `verify-full`. A port that does not fit, and control characters anywhere, are refused.
    ///
    /// - Throws: ``PostgresStoreError`` of kind `invalidURL`; its message never repeats the password.
    public init(url text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["postgresql", "postgres"].contains(scheme)
        else {
            throw PostgresStoreError.invalidURL("it must start with postgresql:// (or postgres://)")
        }
        let parameters = try Self.parameters(components)
        let port = try Self.port(Self.authorityPort(text), parameter: parameters["port"])
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
        let password = parameters["password"] ?? components.password
        for (part, value) in [
            ("host", host), ("user", username), ("database name", database ?? ""),
            ("password", password ?? ""), ("path", path.removingPercentEncoding ?? ""),
        ]
        where value.unicodeScalars.contains(where: Self.isControl) {
            throw PostgresStoreError.invalidURL("its \(part) contains a control character (such as NUL)")
        }
        let endpoint: Endpoint =
            host.hasPrefix("/") ? .unixSocket(path: host + "/.s.PGSQL.\(port)") : .tcp(host: host, port: port)
        self.init(
            endpoint: endpoint,
            username: username,
            password: password,
            database: database ?? username,
            tls: try Self.tlsMode(parameters["sslmode"], endpoint: endpoint)
        )
        rootCertificatePath = parameters["sslrootcert"].flatMap { $0.isEmpty || $0 == "system" ? nil : $0 }
        passwordFile = parameters["passfile"].flatMap { $0.isEmpty ? nil : $0 }
        if let name = parameters["application_name"], !name.isEmpty { applicationName = name }
        if let seconds = parameters["connect_timeout"] {
            guard let value = Int(seconds), (1...3600).contains(value) else {
                throw PostgresStoreError.invalidURL("connect_timeout must be a whole number of seconds in 1–3600")
            }
            connectTimeout = .seconds(value)
        }
    }

    /// The query's parameters, each known to atoauth, given once, and free of control characters.
    private static func parameters(_ components: URLComponents) throws -> [String: String] {
        var parameters: [String: String] = [:]
        let items = components.queryItems ?? []
        let passwords = ([components.password] + items.filter { $0.name == "password" }.map(\.value))
            .compactMap { $0 }.filter { !$0.isEmpty }
        for item in items {
            guard urlParameters.contains(item.name) else {
                let named: String
                if !TerminalText.isSafe(item.name, limit: 40) {
                    named = "an unknown parameter with a control character in its name (or a long one)"
                } else if passwords.contains(where: { item.name.contains($0) }) {
                    named = "an unknown parameter (its name holds the password, so it is not shown)"
                } else {
                    named = "the unknown parameter '\(item.name)'"
                }
                throw PostgresStoreError.invalidURL(
                    "it has \(named); atoauth understands " + urlParameters.sorted().joined(separator: ", ")
                )
            }
            // libpq lets the last of repeated parameters win: `sslmode=verify-full&sslmode=disable` would turn TLS
            // off behind a reader's back.
            guard parameters[item.name] == nil else {
                throw PostgresStoreError.invalidURL("it gives the parameter '\(item.name)' more than once")
            }
            let value = item.value ?? ""
            guard !value.unicodeScalars.contains(where: isControl) else {
                throw PostgresStoreError.invalidURL("its parameter '\(item.name)' contains a control character")
            }
            parameters[item.name] = value
        }
        return parameters
    }

    /// The port as written in the authority, when one is: `URLComponents` drops a port that overflows `Int`, which
    /// would otherwise become the default port without a word.
    private static func authorityPort(_ text: String) throws -> String? {
        guard let start = text.range(of: "://")?.upperBound else { return nil }
        let rest = text[start...]
        let authority = rest.prefix { !"/?#".contains($0) }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let afterHost = hostAndPort.hasPrefix("[") ? hostAndPort.drop { $0 != "]" }.dropFirst() : hostAndPort[...]
        guard let colon = afterHost.lastIndex(of: ":") else { return nil }
        let port = afterHost[afterHost.index(after: colon)...]
        return port.isEmpty ? nil : String(port)
    }

    /// C0 controls, DEL and C1 controls, which no host, user, database or setting holds.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func port(_ authorityPort: String?, parameter: String?) throws -> Int {
        guard let given = parameter ?? authorityPort else { return 5432 }
        guard given.allSatisfy(\.isASCII), let value = Int(given), (1...65535).contains(value) else {
            throw PostgresStoreError.invalidURL("its port must be in 1–65535")
        }
        if parameter != nil, authorityPort != nil {
            throw PostgresStoreError.invalidURL("it gives the port both after the host and as a parameter")
        }
        return value
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

    /// The URL's `sslmode`; without one, `prefer` for this machine (a Unix socket or a loopback address) and
    /// `verify-full` for any other host, whose certificate must then be trusted by the system (or `sslrootcert`).
    private static func tlsMode(_ value: String?, endpoint: Endpoint) throws -> PostgresStore.TLSMode {
        guard let value else { return endpoint.isThisMachine ? .prefer : .verifyFull }
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
