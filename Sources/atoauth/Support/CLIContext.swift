import ATProtoIdentity
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import Logging

/// Everything a command needs, built from the global options and the environment (a flag wins over its variable).
struct CLIContext {
    let settings: GlobalSettings
    let environment: [String: String]
    let home: URL
    let accounts: AccountManager

    /// Builds the context, runs `body`, and shuts the transport down on every path.
    static func run<T, Command>(
        _ options: GlobalOptions<Command>,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        responseLimit: (bytes: Int, option: String)? = nil,
        _ body: (CLIContext) async throws -> T
    ) async throws -> T {
        try await run(
            try GlobalSettings(options, environment: environment),
            environment: environment,
            creatingStore: Command.self is any StoreCreatingCommand.Type,
            responseLimit: responseLimit,
            body
        )
    }

    /// Builds the context from settings already read, runs `body`, and shuts the transport down on every path.
    ///
    /// Only with `creatingStore` (a command that stores something) is a file store that does not exist yet made.
    /// A `responseLimit` (with the option that set it) replaces the transport's 1 MiB limit on a response.
    static func run<T>(
        _ settings: GlobalSettings,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        creatingStore: Bool = false,
        responseLimit: (bytes: Int, option: String)? = nil,
        _ body: (CLIContext) async throws -> T
    ) async throws -> T {
        let logger = logger(settings)
        let home = try homeDirectory(settings, environment)
        return try await StoreSelection.withKeystore(
            settings,
            home: home,
            environment: environment,
            logger: logger,
            creating: creatingStore
        ) { keystore in
            try await withTransport(settings, logger: logger, responseLimit: responseLimit) { transport in
                var configuration = try accountConfiguration(settings, logger: logger)
                configuration.nonceFile = home.appendingPathComponent("dpop-nonces.json")
                let accounts = AccountManager(keystore: keystore, transport: transport, configuration: configuration)
                let context = CLIContext(settings: settings, environment: environment, home: home, accounts: accounts)
                do {
                    return try await body(context)
                } catch let error as AccountError where error.code == .noSuchAccount {
                    throw await AccountSuggestion.failure(for: error, context: context)
                }
            }
        }
    }

    /// The logger the settings ask for: HTTP exchanges on stderr with `-v`, else warnings as sentences; JSON lines
    /// either way when the command's stderr is a JSON log.
    static func logger(_ settings: GlobalSettings) -> Logger {
        if settings.logsJSONLines {
            return LineLogHandler.logger(label: "atoauth", json: true, level: settings.verbose ? .debug : .warning)
        }
        var logger =
            settings.verbose
            ? Logger(label: "atoauth") { StreamLogHandler.standardError(label: $0) }
            : Logger(label: "atoauth") { _ in SentenceLogHandler() }
        logger.logLevel = settings.verbose ? .debug : .warning
        return logger
    }

    /// Runs `body` with an HTTP transport bounded by `--request-timeout` (logging each exchange with `-v`), and
    /// shuts it down on every path.
    static func withTransport<T>(
        _ settings: GlobalSettings,
        logger: Logger,
        responseLimit: (bytes: Int, option: String)? = nil,
        _ body: (any HTTPTransport) async throws -> T
    ) async throws -> T {
        var transportLogger = logger
        transportLogger.logLevel = .warning  // AsyncHTTPClient's own connection chatter is not what -v shows.
        let timeout = settings.requestTimeout
        var limits = AsyncHTTPClientTransport.Configuration(
            connectTimeout: min(.seconds(10), timeout),
            totalTimeout: timeout,
            maximumConnectionsPerHost: settings.connectionsPerHost
        )
        // Only a command with an option for the limit (xrpc's --max-response) tells the reader to raise it.
        limits.maximumResponseBytesSetting = responseLimit?.option
        if let responseLimit { limits.maximumResponseBytes = responseLimit.bytes }
        return try await AsyncHTTPClientTransport.withTransport(configuration: limits, logger: transportLogger) {
            base in
            try await body(settings.verbose ? LoggingTransport(base, logger: logger) : base)
        }
    }

    /// `--home`, else `ATOAUTH_HOME`, else `$XDG_DATA_HOME/atoauth`, else `~/.local/share/atoauth`.
    static func homeDirectory(_ settings: GlobalSettings, _ environment: [String: String]) throws -> URL {
        if let home = settings.home {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let data = environment["XDG_DATA_HOME"].nonEmpty, data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("atoauth", isDirectory: true)
        }
        guard let userHome = environment["HOME"].nonEmpty else {
            throw CLIFailure(status: .usage, message: "HOME is not set; give --home DIR or set ATOAUTH_HOME.")
        }
        return URL(fileURLWithPath: userHome, isDirectory: true)
            .appendingPathComponent(".local/share/atoauth", isDirectory: true)
    }

    /// The account manager's configuration the settings give: where identities resolve, development mode, the log.
    static func accountConfiguration(_ settings: GlobalSettings, logger: Logger) throws -> AccountManager.Configuration
    {
        var configuration = AccountManager.Configuration()
        configuration.identity = try identityConfiguration(settings)
        configuration.allowHTTPLoopback = settings.allowHTTPLoopback
        configuration.logger = logger
        return configuration
    }

    static func identityConfiguration(_ settings: GlobalSettings) throws -> IdentityResolver.Configuration {
        var configuration = IdentityResolver.Configuration()
        if let plc = settings.plcDirectory { configuration.plcDirectory = plc }
        configuration.handleResolverService = settings.handleResolver
        return configuration
    }
}

extension Optional where Wrapped == String {
    /// The string, or `nil` when it is missing or empty.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
