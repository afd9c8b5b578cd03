import ArgumentParser

/// Lets the global options come anywhere before the command's own arguments (`atoauth -v whoami`,
/// `atoauth accounts --json list`) as well as after them.
///
/// The argument parser only reads an option once it knows the command that declares it, so the global options
/// found among the subcommand words are moved to just after the last of them. Whether the command takes the option
/// is decided afterwards, by the command (``GlobalOptions``).
enum GlobalOptionPlacement {
    static func normalize(_ arguments: [String]) -> [String] {
        var command: any ParsableCommand.Type = ATOAuthCommand.self
        var words: [String] = []
        var moved: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if let option = GlobalOption(spelling: argument) {
                let joined = !option.takesValue || argument.contains("=")
                guard joined || index + 1 < arguments.endIndex else { break }
                moved += joined ? [argument] : [argument, arguments[index + 1]]
                index += joined ? 1 : 2
            } else if let subcommand = command.configuration.subcommands.first(where: { $0.name == argument }) {
                words.append(argument)
                command = subcommand
                index += 1
            } else {
                break
            }
        }
        let rest = Array(arguments[index...])
        guard !moved.isEmpty else { return arguments }
        // Without a subcommand the options stay behind the first word, where the parser reports what is wrong.
        return words.isEmpty ? rest + moved : words + moved + rest
    }
}
