import Foundation
import HTTPTransport
import WireFormat

/// What the global options say for one command: each flag, else its environment variable when it takes the option.
///
/// A variable for an option the command does not take is ignored (variables are ambient), so a stale
/// `ATOAUTH_CLIENT_ID` or a malformed `ATOAUTH_PLC_DIRECTORY` never breaks `accounts list`.
struct GlobalSettings: Sendable {
    var home: String?
    var store: String?
    /// Whether ``store`` came from `--store`, where other users of the machine can read it, rather than a variable.
    var storeFromCommandLine: Bool
    var account: String?
    /// Whether ``account`` came from `ATOAUTH_ACCOUNT` rather than `--account`.
    var accountFromEnvironment: Bool
    var plcDirectory: String?
    var handleResolver: String?
    var allowHTTPLoopback: Bool
    var clientID: String?
    /// `--request-timeout` or `ATOAUTH_REQUEST_TIMEOUT` as given; ``requestTimeout()`` checks it.
    var requestTimeoutText: String?
    /// Where ``requestTimeoutText`` came from, to name it in an error.
    var requestTimeoutSource: String
    var json: Bool
    var verbose: Bool
    /// Whether the command may ask on a terminal (a passphrase); off for shell completion.
    var mayAsk = true
    /// How many connections to one server the command's calls may use at once; the gateway's, as many as the
    /// requests it admits.
    var connectionsPerHost = AsyncHTTPClientTransport.Configuration().maximumConnectionsPerHost
    /// Whether the command's log records (warnings, and with `-v` each HTTP exchange) are JSON lines on stderr
    /// (``LineLogHandler``): the gateway's with `--json`, whose stderr is a log.
    var logsJSONLines = false

    /// The settings of a command that only reads the store: `home` and `store` as given, else their variables.
    init(home: String?, store: String?, environment: [String: String]) {
        self.home = home ?? environment[GlobalOption.home.variable ?? ""].nonEmpty
        self.store = store ?? environment[GlobalOption.storeURL.variable ?? ""].nonEmpty
        storeFromCommandLine = store != nil
        accountFromEnvironment = false
        requestTimeoutSource = "--request-timeout"
        allowHTTPLoopback = false
        json = false
        verbose = false
    }

    init<Command>(_ options: GlobalOptions<Command>, environment: [String: String]) {
        func variable(_ option: GlobalOption) -> String? {
            guard Command.globalOptions.contains(option), let name = option.variable else { return nil }
            return environment[name].nonEmpty
        }
        home = options.home ?? variable(.home)
        store = options.store ?? variable(.storeURL)
        storeFromCommandLine = options.store != nil
        account = options.account ?? variable(.account)
        accountFromEnvironment = options.account == nil && account != nil
        plcDirectory = options.plcDirectory ?? variable(.plcDirectory)
        handleResolver = options.handleResolver ?? variable(.handleResolver)
        allowHTTPLoopback = options.allowHTTPLoopback || variable(.allowHTTPLoopback) == "1"
        clientID = options.clientID ?? variable(.clientID)
        requestTimeoutText = options.requestTimeout ?? variable(.requestTimeout)
        requestTimeoutSource = options.requestTimeout == nil ? "ATOAUTH_REQUEST_TIMEOUT" : "--request-timeout"
        json = options.json
        verbose = options.verbose || variable(.verbose) == "1"
    }

    /// The longest one HTTP request may take: `--request-timeout`, else `ATOAUTH_REQUEST_TIMEOUT`, else 30 s.
    ///
    /// - Throws: a usage error naming where the value came from when it is not a number of seconds in range.
    func requestTimeout() throws -> Duration {
        guard let text = requestTimeoutText else { return .seconds(30) }
        let maximum = GlobalOption.maximumRequestTimeout
        guard let seconds = Double(text), seconds.isFinite, seconds >= 1, seconds <= Double(maximum) else {
            throw CLIFailure(
                status: CLIFailure.usage,
                message:
                    "\(requestTimeoutSource) must be a number of seconds from 1 to \(maximum), not “\(TerminalText.sanitized(text))”."
            )
        }
        return .milliseconds(Int(seconds * 1000))
    }
}
