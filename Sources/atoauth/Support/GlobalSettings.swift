import ATProtoSyntax
import Foundation
import HTTPTransport
import WireFormat

/// What the global options say for one command: each flag, else its environment variable when it takes the option.
///
/// A variable for an option the command does not take is ignored (variables are ambient), so a stale
/// `ATOAUTH_CLIENT_ID` or a malformed `ATOAUTH_PLC_DIRECTORY` never breaks `accounts list`. A variable the command
/// takes is read by the option's own type (``ArgumentValue``), and a malformed one is a usage error.
struct GlobalSettings: Sendable {
    var home: String?
    var store: String?
    /// Whether ``store`` came from `--store`, where other users of the machine can read it, rather than a variable.
    var storeFromCommandLine: Bool
    var account: String?
    /// Whether ``account`` came from `ATOAUTH_ACCOUNT` rather than `--account`.
    var accountFromEnvironment: Bool
    var plcDirectory: URL?
    var handleResolver: URL?
    var allowHTTPLoopback: Bool
    var clientID: URL?
    /// The longest one HTTP request may take: `--request-timeout`, else `ATOAUTH_REQUEST_TIMEOUT`, else 30 s.
    var requestTimeout = Duration.seconds(30)
    var json: Bool
    var verbose: Bool
    /// Whether the command may ask on a terminal (a passphrase); off for shell completion.
    var mayAsk = true
    /// How many connections to one server the command's calls may use at once; the gateway's, as many as the
    /// requests it admits.
    var connectionsPerHost = AsyncHTTPClientTransport.Configuration().maximumConnectionsPerHost

    /// The account `--account` or `ATOAUTH_ACCOUNT` names, or `nil` for the active one.
    ///
    /// - Throws: `AccountError.noSuchAccount` for text that is no handle or DID (exit 3, as for any unknown account).
    func selectedAccount() throws -> ATIdentifier? {
        try account.map { try AccountArgument(parsing: $0).identifier() }
    }
    /// Whether the command's log records (warnings, and with `-v` each HTTP exchange) are JSON lines on stderr
    /// (``LineLogHandler``): the gateway's with `--json`, whose stderr is a log.
    var logsJSONLines = false

    /// The seconds `--request-timeout` takes.
    static let requestTimeoutRange = 1...GlobalOption.maximumRequestTimeout

    /// The settings of a command that only reads the store: `home` and `store` as given, else their variables.
    init(home: String?, store: String?, environment: [String: String]) {
        self.home = home ?? environment[GlobalOption.home.variable ?? ""].nonEmpty
        self.store = store ?? environment[GlobalOption.storeURL.variable ?? ""].nonEmpty
        storeFromCommandLine = store != nil
        accountFromEnvironment = false
        allowHTTPLoopback = false
        json = false
        verbose = false
    }

    /// - Throws: a usage error naming the option of a variable that does not parse.
    init<Command>(_ options: GlobalOptions<Command>, environment: [String: String]) throws {
        func variable(_ option: GlobalOption) -> String? {
            guard Command.globalOptions.contains(option), let name = option.variable else { return nil }
            return environment[name].nonEmpty
        }
        func url(_ option: GlobalOption) throws -> URL? {
            guard let text = variable(option) else { return nil }
            do {
                return try HTTPURL(parsing: text).url
            } catch {
                throw CLIFailure(status: .usage, message: error.sentence(naming: option.flag))
            }
        }
        home = options.home ?? variable(.home)
        store = options.store ?? variable(.storeURL)
        storeFromCommandLine = options.store != nil
        account = options.account ?? variable(.account)
        accountFromEnvironment = options.account == nil && account != nil
        plcDirectory = try options.plcDirectory?.url ?? url(.plcDirectory)
        handleResolver = try options.handleResolver?.url ?? url(.handleResolver)
        allowHTTPLoopback = options.allowHTTPLoopback || variable(.allowHTTPLoopback) == "1"
        clientID = try options.clientID?.url ?? url(.clientID)
        if let seconds = options.requestTimeout {
            requestTimeout = seconds.duration
        } else if let text = variable(.requestTimeout), let name = GlobalOption.requestTimeout.variable {
            do {
                requestTimeout = try Seconds(parsing: text, within: Self.requestTimeoutRange, source: name).duration
            } catch {
                throw CLIFailure(status: .usage, message: error.sentence(naming: name))
            }
        }
        json = options.json
        verbose = options.verbose || variable(.verbose) == "1"
    }
}
