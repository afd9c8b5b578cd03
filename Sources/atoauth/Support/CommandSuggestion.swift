import ArgumentParser

/// "Did you mean …?" for a mistyped subcommand or another tool's habit.
enum CommandSuggestion {
    /// The subcommand names at each level, for suggestions.
    static let levels: [[String]] = [
        ATOAuthCommand.configuration.subcommands.map { $0.name },
        AccountsCommand.configuration.subcommands.map { $0.name },
    ]

    /// The other names the subcommands of `accounts` answer to (`ls`, `rm`, `logout`): known words, never suggested.
    static let accountsAliases = Set(AccountsCommand.configuration.subcommands.flatMap { $0.configuration.aliases })

    /// What to say about a command line the parser refused: another tool's word for a command
    /// (``OtherToolHabits``), or the closest known subcommand to a mistyped word, within two edits; `nil` when
    /// neither applies.
    static func suggestion(for arguments: [String]) -> String? {
        let words = arguments.filter { !$0.hasPrefix("-") }
        guard let first = words.first else { return nil }
        let root = levels[0]
        guard root.contains(first) else {
            return OtherToolHabits.command(for: words) ?? closest(first, in: root).map { didYouMean("atoauth \($0)") }
        }
        guard first == AccountsCommand.name, words.count > 1 else { return nil }
        let second = words[1]
        guard !levels[1].contains(second), !accountsAliases.contains(second) else { return nil }
        return OtherToolHabits.command(for: words)
            ?? closest(second, in: levels[1]).map { didYouMean("atoauth accounts \($0)") }
    }

    /// The message that suggests `command` in place of a mistyped or borrowed word.
    static func didYouMean(_ command: String) -> String {
        "No such command. Did you mean `\(command)`?"
    }

    /// A usage error naming an unknown option, for a command line the parser refused for a missing argument first
    /// (`atoauth xrpc --bogus` is told about `--bogus`, not about the missing NSID) or for anything else when the
    /// option is another tool's (`xrpc -X POST` is told about `-X` and atoauth's way, not that `POST` is no query
    /// parameter); `nil` when every option is known or neither applies.
    static func unknownOption(in arguments: [String], parseError: any Error, json: Bool) -> CLIFailure? {
        let options = arguments.prefix { $0 != "--" }
        let (command, path) = command(named: options.filter { !$0.hasPrefix("-") })
        let help = ATOAuthCommand.helpMessage(for: command, includeHidden: true, columns: 10_000)
        let known = Set(help.matches(of: /(^|[^\w-])(--?[A-Za-z][\w-]*)/).map { String($0.output.2) })
        guard
            let unknown = options.filter({ $0.count > 1 && $0.hasPrefix("-") && Double($0) == nil })
                .map({ String($0.split(separator: "=", maxSplits: 1)[0]) })
                .first(where: { !known.contains($0) })
        else { return nil }
        let habit = OtherToolHabits.option(unknown, command: path)
        guard habit != nil || ATOAuthCommand.message(for: parseError).hasPrefix("Missing expected argument") else {
            return nil
        }
        let message = habit.map { "Unknown option '\($0.name)'. \($0.pointer)" } ?? "Unknown option '\(unknown)'"
        if json { return CLIFailure(status: .usage, message: message) }
        return CLIFailure(
            status: .usage,
            message: "Error: \(message)\nUsage: " + ATOAuthCommand.usageString(for: command)
                + "\n  See '\(path) --help' for more information."
        )
    }

    /// The command the leading `words` name, by name or alias (`accounts rm` is `atoauth accounts remove`), and its
    /// full name; the root when the first word names none.
    private static func command(named words: [String]) -> (any ParsableCommand.Type, String) {
        var command: any ParsableCommand.Type = ATOAuthCommand.self
        for word in words {
            guard
                let next = command.configuration.subcommands.first(where: {
                    $0.name == word || $0.configuration.aliases.contains(word)
                })
            else { break }
            command = next
        }
        return (command, CommandTree.path(of: command) ?? command.name)
    }

    private static func closest(_ word: String, in names: [String]) -> String? {
        names.map { ($0, EditDistance.between(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
