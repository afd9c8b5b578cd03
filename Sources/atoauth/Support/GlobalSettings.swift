/// What the global options say for one command: each flag, else its environment variable when it takes the option.
///
/// A variable for an option the command does not take is ignored (variables are ambient), so a stale
/// `ATOAUTH_CLIENT_ID` or a malformed `ATOAUTH_PLC_DIRECTORY` never breaks `accounts list`.
struct GlobalSettings: Sendable {
    var home: String?
    var store: String?
    var account: String?
    var plcDirectory: String?
    var handleResolver: String?
    var allowHTTPLoopback: Bool
    var clientID: String?
    var json: Bool
    var verbose: Bool

    init<Command>(_ options: GlobalOptions<Command>, environment: [String: String]) {
        func variable(_ option: GlobalOption) -> String? {
            guard Command.globalOptions.contains(option), let name = option.variable else { return nil }
            return environment[name].nonEmpty
        }
        home = options.home ?? variable(.home)
        store = options.store ?? variable(.storeURL)
        account = options.account ?? variable(.account)
        plcDirectory = options.plcDirectory ?? variable(.plcDirectory)
        handleResolver = options.handleResolver ?? variable(.handleResolver)
        allowHTTPLoopback = options.allowHTTPLoopback || variable(.allowHTTPLoopback) == "1"
        clientID = options.clientID ?? variable(.clientID)
        json = options.json
        verbose = options.verbose || variable(.verbose) == "1"
    }
}
