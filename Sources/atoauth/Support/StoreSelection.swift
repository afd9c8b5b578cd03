import Foundation
import Keystore
import Logging
import PostgresStore

/// Which store a command uses: the database `--store` names, else the encrypted files under `--home`.
///
/// `--store` (or `ATOAUTH_STORE`) takes a `postgresql://` URL: a PostgreSQL database shared by several machines.
/// Both stores seal every value with the key `StoreEnvironment` finds.
enum StoreSelection {
    /// The environment variable naming the store.
    static let variable = "ATOAUTH_STORE"

    /// Opens the store the global settings select (`--store`, its variable, or the files under `home`), runs `body`
    /// with it, and closes it on every path; on a terminal, asks for what the file store's key needs unless asking
    /// is off (shell completion, which must never wait for input).
    ///
    /// Before any file store exists, a command gets an empty one (``UncreatedFileStore``) that a write creates: only
    /// a command `creating` what it stores (a sign-in) writes, after asking first on a terminal how the new store's
    /// key is kept (``FirstUseKey``). With a database, `home` still keeps this machine's DPoP nonce cache,
    /// so it is created (`0700`) when missing.
    static func withKeystore<T>(
        _ settings: GlobalSettings,
        home: URL,
        environment: [String: String],
        logger: Logger,
        creating: Bool = false,
        _ body: (any Keystore) async throws -> T
    ) async throws -> T {
        let asking = settings.mayAsk
        guard let url = settings.store else {
            guard UncreatedFileStore.exists(in: home) else {
                // A command that stores something asks now, on a terminal, how the new store's key is kept; the
                // store is made by its first write, so one that fails before storing anything leaves no file.
                var environment = environment
                if creating, asking,
                    let keyFile = FirstUseKey.keyFileToOffer(directory: home, environment: environment),
                    let passphrase = try await FirstUseKey.chosenPassphrase(directory: home, keyFile: keyFile)
                {
                    environment[StoreEnvironment.passphraseVariable] = passphrase
                }
                return try await body(UncreatedFileStore(directory: home, environment: environment, logger: logger))
            }
            let store =
                asking
                ? try await StoreEnvironment.openAsking(directory: home, environment: environment, logger: logger)
                : try StoreEnvironment.open(directory: home, environment: environment, logger: logger)
            return try await body(store)
        }
        let (configuration, passwordInURL) = try postgresConfiguration(url, environment: environment)
        if settings.storeFromCommandLine, passwordInURL {
            let warning =
                "The password in --store can be read by other users of this machine (in ps and /proc/<pid>/cmdline). "
                + "Give it in PGPASSWORD or a password file instead (the URL's passfile parameter, PGPASSFILE or "
                + "~/.pgpass, mode 0600), or the whole URL in \(variable)."
            logger.warning("\(warning)")
        }
        let keySource = try StoreEnvironment.keySource(environment: environment)
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        var storeLogger = logger
        storeLogger.logLevel = max(logger.logLevel, .info)  // -v shows HTTP exchanges, not each SQL statement.
        return try await PostgresStore.withStore(
            configuration: configuration,
            keySource: keySource,
            logger: storeLogger
        ) {
            try await body($0)
        }
    }

    /// The password file to read: the URL's `passfile`, else `PGPASSFILE`, else `~/.pgpass` when it exists.
    private static func passwordFile(
        _ configuration: PostgresStore.Configuration,
        environment: [String: String]
    ) -> String? {
        if let file = configuration.passwordFile ?? environment["PGPASSFILE"].nonEmpty { return file }
        guard let home = environment["HOME"].nonEmpty else { return nil }
        let file = URL(fileURLWithPath: home).appendingPathComponent(".pgpass").path
        return FileManager.default.fileExists(atPath: file) ? file : nil
    }

    /// The database a `postgresql://` URL names; the password comes from the URL, else from `PGPASSWORD`, else from
    /// a password file: the URL's `passfile`, else `PGPASSFILE`, else `~/.pgpass` when it exists, as libpq has it.
    static func postgresConfiguration(
        _ url: String,
        environment: [String: String]
    ) throws -> (PostgresStore.Configuration, passwordInURL: Bool) {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard scheme == "postgresql" || scheme == "postgres" else {
            throw CLIFailure(
                status: .usage,
                message: "--store (\(variable)) takes a postgresql:// URL; leave it unset to keep accounts in the "
                    + "encrypted files under --home."
            )
        }
        var configuration = try PostgresStore.Configuration(url: url)
        let passwordInURL = configuration.password != nil
        if configuration.password == nil, let password = environment["PGPASSWORD"].nonEmpty {
            configuration.password = password
        }
        if configuration.password == nil, let file = passwordFile(configuration, environment: environment) {
            configuration.password = try PostgresStore.PasswordFile.password(for: configuration, path: file)
        }
        return (configuration, passwordInURL)
    }
}
