import ArgumentParser

/// One of the options the commands share, with its flag and environment variable.
///
/// Each command takes the ones it can use (``GlobalOptionUser``). One it cannot use is refused when given on the
/// command line (a usage error naming the commands that take it) and hidden from its help; its environment variable
/// is ignored, because variables are ambient: set once for a shell, they reach every command.
enum GlobalOption: String, CaseIterable, Sendable {
    case home
    case storeURL = "store"
    case account
    case plcDirectory = "plc-directory"
    case handleResolver = "handle-resolver"
    case allowHTTPLoopback = "allow-http-loopback"
    case clientID = "client-id"
    case requestTimeout = "request-timeout"
    case json
    case verbose

    /// The long flag, such as `--plc-directory`: the raw value after two dashes.
    var flag: String { "--" + rawValue }

    /// Every spelling on the command line: the long flag, and `-v` for `--verbose`.
    var spellings: [String] { self == .verbose ? ["-v", flag] : [flag] }

    /// Whether the option is followed by a value.
    var takesValue: Bool { ![.allowHTTPLoopback, .json, .verbose].contains(self) }

    /// The environment variable that sets it when the flag is not given; `--json` has none.
    var variable: String? {
        switch self {
        case .home: "ATOAUTH_HOME"
        case .storeURL: "ATOAUTH_STORE"
        case .account: "ATOAUTH_ACCOUNT"
        case .plcDirectory: "ATOAUTH_PLC_DIRECTORY"
        case .handleResolver: "ATOAUTH_HANDLE_RESOLVER"
        case .allowHTTPLoopback: "ATOAUTH_ALLOW_HTTP_LOOPBACK"
        case .clientID: "ATOAUTH_CLIENT_ID"
        case .requestTimeout: "ATOAUTH_REQUEST_TIMEOUT"
        case .json: nil
        case .verbose: "ATOAUTH_VERBOSE"
        }
    }

    /// The option spelled `argument` (`--home`, `--home=dir`, `-v`), or `nil`.
    init?(spelling argument: String) {
        let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
        guard let option = Self.allCases.first(where: { $0.spellings.contains(name) }),
            option.takesValue || name == argument
        else { return nil }
        self = option
    }

    /// The options of every command that opens the account store.
    static let store: Set<GlobalOption> = [.home, .storeURL, .json, .verbose]
    /// What a command sending requests as a signed-in account uses: the store, `--account`, and what a refresh
    /// needs (it resolves the DID again and talks to the authorization server).
    static let signedInRequests: Set<GlobalOption> = store.union([
        .account, .plcDirectory, .handleResolver, .allowHTTPLoopback, .requestTimeout,
    ])

    /// The longest `--request-timeout`, in seconds.
    static let maximumRequestTimeout = 3_600
}

/// A command that takes some of the global options, through `@OptionGroup var global: GlobalOptions<Self>`.
protocol GlobalOptionUser: ParsableCommand {
    /// The global options this command can use.
    static var globalOptions: Set<GlobalOption> { get }
    /// The help of a global option that means something particular to this command, in place of the shared one.
    static var globalOptionHelp: [GlobalOption: String] { get }
}

extension GlobalOptionUser {
    /// No command-specific help: every option shows the shared text.
    static var globalOptionHelp: [GlobalOption: String] { [:] }
}

extension GlobalOption {
    /// The full names of the commands that take this option, such as `atoauth accounts add`, in help order.
    var commands: [String] {
        CommandTree.paths.compactMap { command, path in
            (command as? any GlobalOptionUser.Type)?.globalOptions.contains(self) == true ? path : nil
        }
    }

    /// The usage error for this option given to `command`: what does not apply, and which commands take it.
    func refusal(by command: any ParsableCommand.Type) -> String {
        let name = CommandTree.path(of: command) ?? command.name
        let takers = commands.map { "`\($0)`" }
        let list =
            takers.count > 1 ? takers.dropLast().joined(separator: ", ") + " and " + (takers.last ?? "") : takers.first
        guard let list else { return "\(flag) does not apply to `\(name)`." }
        return "\(flag) does not apply to `\(name)`; it is taken by \(list)."
    }
}

/// The commands of `atoauth`, walked from the root.
enum CommandTree {
    /// Every command with its full name, depth first in declaration order.
    static let paths: [(command: any ParsableCommand.Type, path: String)] = walk(ATOAuthCommand.self, prefix: "")

    /// The full name of `command`, such as `atoauth accounts switch`.
    static func path(of command: any ParsableCommand.Type) -> String? {
        paths.first { ObjectIdentifier($0.command) == ObjectIdentifier(command) }?.path
    }

    private static func walk(
        _ command: any ParsableCommand.Type,
        prefix: String
    ) -> [(command: any ParsableCommand.Type, path: String)] {
        let path = prefix.isEmpty ? command.name : prefix + " " + command.name
        return [(command, path)] + command.configuration.subcommands.flatMap { walk($0, prefix: path) }
    }
}
