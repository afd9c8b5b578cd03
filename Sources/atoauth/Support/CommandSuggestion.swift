import ArgumentParser

/// "Did you mean …?" for a mistyped subcommand, and number options given negative values.
enum CommandSuggestion {
    /// The subcommand names at each level, for suggestions.
    static let levels: [[String]] = [
        ATOAuthCommand.configuration.subcommands.map { $0.name },
        AccountsCommand.configuration.subcommands.map { $0.name },
    ]

    /// The closest known subcommand to a mistyped word, within two edits; `nil` when none is close.
    static func suggestion(for arguments: [String]) -> String? {
        let words = arguments.filter { !$0.hasPrefix("-") }
        guard let first = words.first else { return nil }
        let root = levels[0]
        guard root.contains(first) else { return closest(first, in: root).map { "atoauth \($0)" } }
        guard first == AccountsCommand.configuration.commandName, words.count > 1 else { return nil }
        let second = words[1]
        guard !levels[1].contains(second) else { return nil }
        return closest(second, in: levels[1]).map { "atoauth accounts \($0)" }
    }

    /// Options whose values are numbers: `--timeout -5` is read as the value -5 (then refused by validation), not as
    /// an unknown option `-5` with the value missing.
    static let numberOptions: Set<String> = [
        "--timeout", "--callback-port", "--max-pages", "--plc-port", "--pds-port", "--auth-port",
        "--access-token-lifetime", "--nonce-period", "--fail-refreshes", "--slow-milliseconds",
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
        names.map { ($0, distance(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
