import ArgumentParser

/// "Did you mean …?" for a mistyped subcommand, and number options given negative values.
enum CommandSuggestion {
    /// The subcommand names at each level, for suggestions.
    static let levels: [[String]] = [
        ATOAuthCommand.configuration.subcommands.map { $0.name },
        AccountsCommand.configuration.subcommands.map { $0.name },
    ]

    /// What other tools call the commands (`gh auth login`, `bsky login`): the word, and atoauth's command.
    static let habits: [String: String] = [
        "login": "atoauth accounts add", "signin": "atoauth accounts add", "sign-in": "atoauth accounts add",
        "auth": "atoauth accounts add", "logout": "atoauth accounts remove", "signout": "atoauth accounts remove",
        "sign-out": "atoauth accounts remove", "use": "atoauth accounts switch",
        "accounts-list": "atoauth accounts list",
    ]

    /// The closest known subcommand to a mistyped word, within two edits, or atoauth's name for another tool's
    /// command; `nil` when none is close.
    static func suggestion(for arguments: [String]) -> String? {
        let words = arguments.filter { !$0.hasPrefix("-") }
        guard let first = words.first else { return nil }
        let root = levels[0]
        if !root.contains(first), let habit = habits[first.lowercased()] { return habit }
        guard root.contains(first) else { return closest(first, in: root).map { "atoauth \($0)" } }
        guard first == AccountsCommand.configuration.commandName, words.count > 1 else { return nil }
        let second = words[1]
        guard !levels[1].contains(second) else { return nil }
        return closest(second, in: levels[1]).map { "atoauth accounts \($0)" }
    }

    /// A usage error naming an unknown option, for a command line the parser refused for a missing argument first:
    /// `atoauth xrpc --bogus` is told about `--bogus`, not about the missing NSID; `nil` when every option is known
    /// or the error is another.
    static func unknownOption(in arguments: [String], parseError: any Error, json: Bool) -> CLIFailure? {
        guard ATOAuthCommand.message(for: parseError).hasPrefix("Missing expected argument") else { return nil }
        let words = arguments.filter { !$0.hasPrefix("-") }
        let command = CommandTree.paths.filter { _, path in
            let names = path.split(separator: " ").dropFirst().map(String.init)
            return words.starts(with: names)
        }
        .max { $0.path.count < $1.path.count }
        guard let command else { return nil }
        let help = ATOAuthCommand.helpMessage(for: command.command, includeHidden: true, columns: 10_000)
        let known = Set(help.matches(of: /(^|[^\w-])(--?[A-Za-z][\w-]*)/).map { String($0.output.2) })
        let options = arguments.filter { $0.count > 1 && $0 != "--" && $0.hasPrefix("-") && Double($0) == nil }
        guard
            let unknown = options.map({ String($0.split(separator: "=", maxSplits: 1)[0]) }).first(where: {
                !known.contains($0)
            })
        else { return nil }
        if json { return CLIFailure(status: CLIFailure.usage, message: "Unknown option '\(unknown)'") }
        return CLIFailure(
            status: CLIFailure.usage,
            message: "Error: Unknown option '\(unknown)'\nUsage: "
                + ATOAuthCommand.usageString(for: command.command)
                + "\n  See '\(command.path) --help' for more information."
        )
    }

    /// Options whose values are numbers: `--timeout -5` is read as the value -5 (then refused by validation), not as
    /// an unknown option `-5` with the value missing.
    static let numberOptions: Set<String> = [
        "--timeout", "--callback-port", "--max-pages", "--plc-port", "--pds-port", "--auth-port",
        "--access-token-lifetime", "--nonce-period", "--fail-refreshes", "--slow-milliseconds", "--publish-wait",
    ]

    /// Joins a number option and a negative value into one argument (`--timeout=-5`).
    static func joiningNegativeNumbers(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if numberOptions.contains(argument), index + 1 < arguments.endIndex,
                arguments[index + 1].hasPrefix("-"), Double(arguments[index + 1]) != nil
            {
                result.append(argument + "=" + arguments[index + 1])
                index += 2
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }

    private static func closest(_ word: String, in names: [String]) -> String? {
        names.map { ($0, EditDistance.between(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
