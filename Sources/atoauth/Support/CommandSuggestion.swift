import ArgumentParser
import WireFormat

/// "Did you mean …?" for a mistyped subcommand or another tool's habit.
enum CommandSuggestion {
    /// What to say about a command line the parser refused: another tool's word for a command
    /// (``OtherToolHabits``), or the closest subcommand to a mistyped word, within two edits, at whatever level of
    /// the command tree it stands (`client keygn` is `client keygen`); `nil` when neither applies, or when the word
    /// is an argument of a command that has no subcommands.
    static func suggestion(for arguments: [String]) -> String? {
        let words = arguments.filter { !$0.hasPrefix("-") }
        let (command, depth) = descent(words)
        let subcommands = command.configuration.subcommands
        guard depth < words.count, !subcommands.isEmpty else { return nil }
        if let habit = OtherToolHabits.command(for: words) { return habit }
        let names = subcommands.map { $0.name }
        return closest(words[depth], in: names).map { didYouMean("\(path(of: command)) \($0)") }
    }

    /// A usage error for `help` followed by words that name no command (`atoauth help acounts`), which the parser
    /// would answer with the root's help and status 0: the closest command's help, within two edits, or where to
    /// look; `nil` when the words name a command.
    static func unknownHelpTopic(in arguments: [String]) -> CLIFailure? {
        let words = arguments.filter { !$0.hasPrefix("-") }
        guard words.first == "help" else { return nil }
        let topic = Array(words.dropFirst())
        let (command, depth) = descent(topic)
        guard depth < topic.count else { return nil }
        let known = ["atoauth", "help"] + topic[..<depth]
        let names = command.configuration.subcommands.map { $0.name }
        if let closest = closest(topic[depth], in: names) {
            return CLIFailure(status: .usage, message: didYouMean((known + [closest]).joined(separator: " ")))
        }
        let given = TerminalText.printable(topic.joined(separator: " "))
        return CLIFailure(
            status: .usage,
            message: "No such command: \(given). See `\(known.joined(separator: " "))`"
                + (depth == 0 ? " for the commands." : ".")
        )
    }

    /// What to say when the parser refused a word that stands where a subcommand would and is close to none
    /// (`atoauth bogus`, `atoauth accounts bogus`): that no such command exists, and where they are listed, rather
    /// than the usage of whatever command the parser read it under; `nil` when the parser refused something else.
    static func noSuchCommand(in arguments: [String], parseError: any Error) -> String? {
        let words = arguments.filter { !$0.hasPrefix("-") }
        let (command, depth) = descent(words)
        guard depth < words.count, !command.configuration.subcommands.isEmpty else { return nil }
        let word = words[depth]
        let refusal = ATOAuthCommand.message(for: parseError)
        guard refusal.hasPrefix("Unexpected argument '\(word)'") || refusal.contains("unexpected arguments: '\(word)'")
        else { return nil }
        let path = path(of: command)
        return "No such command: \(TerminalText.printable(word)). See `\(path) --help` for the commands of \(path)."
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
        return CLIFailure(status: .usage, message: usageError(message, command: command, path: path))
    }

    /// `message` as argument-parser prints a usage error: with the usage of `command`, and where its help is.
    static func usageError(_ message: String, command: any ParsableCommand.Type, path: String) -> String {
        "Error: \(message)\nUsage: " + ATOAuthCommand.usageString(for: command)
            + "\n  See '\(path) --help' for more information."
    }

    /// The command the leading `words` name, by name or alias (`accounts rm` is `atoauth accounts remove`), and its
    /// full name; the root when the first word names none.
    static func command(named words: [String]) -> (any ParsableCommand.Type, String) {
        let command = descent(words).command
        return (command, path(of: command))
    }

    /// The command the leading `words` name, by name or alias, and how many of them name it.
    private static func descent(_ words: [String]) -> (command: any ParsableCommand.Type, depth: Int) {
        var command: any ParsableCommand.Type = ATOAuthCommand.self
        for (depth, word) in words.enumerated() {
            guard
                let next = command.configuration.subcommands.first(where: {
                    $0.name == word || $0.configuration.aliases.contains(word)
                })
            else { return (command, depth) }
            command = next
        }
        return (command, words.count)
    }

    private static func path(of command: any ParsableCommand.Type) -> String {
        CommandTree.path(of: command) ?? command.name
    }

    private static func closest(_ word: String, in names: [String]) -> String? {
        names.map { ($0, EditDistance.between(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
