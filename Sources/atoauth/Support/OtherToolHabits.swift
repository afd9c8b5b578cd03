/// What people bring from other tools (`gh auth login`, `bsky login`, `curl -X POST -d …`): atoauth's own words for
/// it, or a one-line pointer where atoauth does the thing another way.
///
/// Exact names become aliases instead (`accounts ls`, `accounts rm`, `accounts logout`), so they run the command;
/// these are the words that cannot.
enum OtherToolHabits {
    /// The message for command words atoauth does not have, by the words (lowercased): another tool's name for one of
    /// atoauth's commands, or a pointer where atoauth has none.
    static let commands: [[String]: String] = [
        ["login"]: use("atoauth accounts add"), ["signin"]: use("atoauth accounts add"),
        ["sign-in"]: use("atoauth accounts add"), ["auth"]: use("atoauth accounts add"),
        ["logout"]: use("atoauth accounts remove"), ["signout"]: use("atoauth accounts remove"),
        ["sign-out"]: use("atoauth accounts remove"), ["use"]: use("atoauth accounts switch"),
        ["accounts-list"]: use("atoauth accounts list"),
        // gh auth …
        ["auth", "login"]: use("atoauth accounts add"), ["auth", "logout"]: use("atoauth accounts remove"),
        ["auth", "status"]: use("atoauth accounts status"), ["auth", "switch"]: use("atoauth accounts switch"),
        ["auth", "token"]: noTokenCommand, ["auth", "refresh"]: noRefreshCommand,
        ["accounts", "login"]: use("atoauth accounts add"),
        ["accounts", "token"]: noTokenCommand, ["accounts", "refresh"]: noRefreshCommand,
    ]

    /// The pointer for another tool's option given to a command, by the command's full name and the option; an
    /// option with its value attached (`-XPOST`, `-d@body.json`, `--data=…`) is found by its name.
    ///
    /// The option's value is never repeated back: a body may hold a password.
    static let options: [String: [String: String]] = [
        "atoauth xrpc": [
            "-X": method, "--request": method,
            "-d": body, "--data": body, "--data-raw": body, "--data-binary": body, "--data-ascii": body,
        ]
    ]

    /// The message for `words` (the command words as typed), when they are another tool's.
    static func command(for words: [String]) -> String? {
        let lowered = words.map { $0.lowercased() }
        return commands[Array(lowered.prefix(2))] ?? lowered.first.flatMap { commands[[$0]] }
    }

    /// The name and pointer for `option` (as typed) given to the command named `path`, when it is another tool's
    /// option; the name leaves out a value attached to a short option (`-d{"password": …}` is `-d`).
    static func option(_ option: String, command path: String) -> (name: String, pointer: String)? {
        guard let table = options[path] else { return nil }
        if let pointer = table[option] { return (option, pointer) }
        guard !option.hasPrefix("--"), option.count > 2 else { return nil }
        let name = String(option.prefix(2))
        return table[name].map { (name, $0) }
    }

    private static func use(_ command: String) -> String {
        CommandSuggestion.didYouMean(command)
    }

    private static let noTokenCommand =
        "No such command: atoauth never prints a session's tokens (they work only with its DPoP key). To call XRPC "
        + "from a script, run `atoauth gateway` and send the gateway's own token, from the file it names "
        + "(see `atoauth gateway --help`)."

    private static let noRefreshCommand =
        "No such command: sessions refresh themselves when a call needs it (`atoauth accounts status --check` tries "
        + "one now). For other permissions, sign in again with `atoauth accounts add <handle> --scope …`."

    private static let method =
        "atoauth xrpc chooses the method itself: a query (GET) by default, a procedure (POST) with --input (the "
        + "body) or --post (none)."

    private static let body =
        "atoauth xrpc takes the body as --input: inline JSON, @FILE for a file, or - for standard input."
}
