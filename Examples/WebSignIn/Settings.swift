import ATOAuth
import ArgumentParser
import Foundation
import PostgresStore

/// How the service runs: its options, each falling back to the `ATOAUTH_*` variable `atoauth` reads for it, so the
/// sandbox's printed variables work here too.
struct Settings {
    /// The port to bind on 127.0.0.1; `0` for any free port.
    var port: Int
    /// The origin `--public-url` gives, without a trailing slash; `nil` for `http://127.0.0.1:<bound port>`.
    var publicURL: String?
    /// The file store's directory; with a database it keeps only the DPoP nonce cache.
    var home: URL?
    /// A `postgresql://` URL, for a store shared by several machines; `nil` for the file store under ``home``.
    var store: String?
    /// Development only: accept `http://` loopback addresses (the sandbox, an `http://127.0.0.1` client_id).
    var allowHTTPLoopback: Bool
    /// Where DIDs and handles are resolved.
    var identity: IdentityResolver.Configuration
    /// The environment the store key and the database password come from.
    var environment: [String: String]

    /// Reads the options, each falling back to its variable.
    init(_ command: WebSignInCommand, environment: [String: String]) throws {
        func variable(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        self.environment = environment
        port = command.port
        store = command.store ?? variable("ATOAUTH_STORE")
        allowHTTPLoopback = command.allowHTTPLoopback || variable("ATOAUTH_ALLOW_HTTP_LOOPBACK") == "1"
        if let home = command.home ?? variable("ATOAUTH_HOME") {
            self.home = URL(fileURLWithPath: home, isDirectory: true)
        } else if let userHome = variable("HOME") {
            self.home = URL(fileURLWithPath: userHome, isDirectory: true)
                .appending(components: ".local", "share", "atoauth-web-example")
        } else if store == nil {
            throw ValidationError("HOME is not set: give the store's directory with --home or ATOAUTH_HOME.")
        }
        identity = IdentityResolver.Configuration()
        if let plc = command.plcDirectory ?? variable("ATOAUTH_PLC_DIRECTORY") {
            identity.plcDirectory = try Self.serviceURL(plc, option: "--plc-directory")
        }
        if let resolver = command.handleResolver ?? variable("ATOAUTH_HANDLE_RESOLVER") {
            identity.handleResolverService = try Self.serviceURL(resolver, option: "--handle-resolver")
        }
        if let publicURL = command.publicURL {
            self.publicURL = try Self.origin(publicURL, allowHTTPLoopback: allowHTTPLoopback)
        } else if !allowHTTPLoopback {
            throw ValidationError(
                "Without --public-url the service's address is http://127.0.0.1:<port>, for development only: give "
                    + "--allow-http-loopback (or ATOAUTH_ALLOW_HTTP_LOOPBACK=1), or the https address it is served at."
            )
        }
    }

    /// The account manager's settings: identity resolution, development mode, the DPoP nonce cache.
    func accountConfiguration(logger: Logger) -> AccountManager.Configuration {
        var configuration = AccountManager.Configuration()
        configuration.identity = identity
        configuration.allowHTTPLoopback = allowHTTPLoopback
        configuration.nonceFile = store == nil ? home?.appendingPathComponent("dpop-nonces.json") : nil
        configuration.logger = logger
        return configuration
    }

    /// Opens the store, runs `body` with it, and closes it on every path.
    ///
    /// The store is the PostgreSQL database `--store` names, else the encrypted files under `--home`; both seal every
    /// token and key with the store key.
    func withKeystore<T>(logger: Logger, _ body: (any Keystore) async throws -> T) async throws -> T {
        let key = try keySource()
        guard let store else {
            guard let home else { throw ValidationError("Give the store's directory with --home.") }
            return try await body(try EncryptedFileKeystore(directory: home, keySource: key, logger: logger))
        }
        var configuration = try PostgresStore.Configuration(url: store)
        if configuration.password == nil, let password = environment["PGPASSWORD"], !password.isEmpty {
            configuration.password = password
        }
        if configuration.password == nil, let file = configuration.passwordFile ?? environment["PGPASSFILE"] {
            configuration.password = try PostgresStore.PasswordFile.password(for: configuration, path: file)
        }
        return try await PostgresStore.withStore(configuration: configuration, keySource: key, logger: logger) {
            try await body($0)
        }
    }

    /// The store key's source, found as `atoauth` finds it: the passphrase in `ATOAUTH_PASSPHRASE`, else the key
    /// file at `ATOAUTH_KEY_FILE`, else `$XDG_CONFIG_HOME/atoauth/store.key`, else `~/.config/atoauth/store.key`
    /// (created with a new store).
    func keySource() throws -> EncryptedFileKeystore.KeySource {
        if let passphrase = environment["ATOAUTH_PASSPHRASE"], !passphrase.isEmpty {
            return .passphrase(passphrase)
        }
        if let path = environment["ATOAUTH_KEY_FILE"], !path.isEmpty {
            return .keyFile(URL(fileURLWithPath: path))
        }
        // The XDG Base Directory Specification says to ignore a relative XDG_CONFIG_HOME.
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            return .keyFile(URL(fileURLWithPath: configHome).appending(components: "atoauth", "store.key"))
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw ValidationError("HOME is not set, so the store key cannot be found: set ATOAUTH_KEY_FILE.")
        }
        return .keyFile(URL(fileURLWithPath: home).appending(components: ".config", "atoauth", "store.key"))
    }

    /// The service's origin from `--public-url`: https, or for development http to 127.0.0.1 or [::1]; no path.
    static func origin(_ text: String, allowHTTPLoopback: Bool) throws -> String {
        guard let url = URL(string: text), let host = url.host, !host.isEmpty,
            url.scheme == "https" || url.scheme == "http", url.path.isEmpty || url.path == "/",
            url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw ValidationError(
                "--public-url takes the service's origin, such as https://example.com, not “\(text)”."
            )
        }
        if url.scheme == "http", !allowHTTPLoopback || !["127.0.0.1", "::1", "[::1]"].contains(host) {
            throw ValidationError(
                "--public-url: an http address is for development on this machine only (http://127.0.0.1:PORT with "
                    + "--allow-http-loopback); a deployed service is served over https."
            )
        }
        var origin = url.absoluteString
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }

    /// A PLC directory or handle resolver address.
    private static func serviceURL(_ text: String, option: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else { throw ValidationError("\(option) needs an http(s) URL, not “\(text)”.") }
        return url
    }
}
