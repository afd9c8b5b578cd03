import ArgumentParser
import WireFormat

/// Lets the global options come anywhere before the command's own arguments (`atoauth -v whoami`,
/// `atoauth accounts --json list`) as well as after them.
///
/// The argument parser only reads an option once it knows the command that declares it, so the global options
/// found among the subcommand words are moved to just after the last of them. Whether the command takes the option
/// is decided afterwards, by the command (``GlobalOptions``).
///
/// It also moves a `kid` that begins with `-` behind `--` for `client remove-key`, where the parser would read it as
/// short options (``keyIDsAfterDoubleDash(_:)``).
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
        var rest = Array(arguments[index...])
        if command == ClientRemoveKeyCommand.self { rest = keyIDsAfterDoubleDash(rest) }
        guard !moved.isEmpty else { return words + rest }
        // Without a subcommand the options stay behind the first word, where the parser reports what is wrong.
        return words.isEmpty ? rest + moved : words + moved + rest
    }

    /// `arguments` with each RFC 7638 SHA-256 thumbprint that begins with `-` (one `kid` in 64 atoauth makes) moved
    /// behind `--`, where `-xh…` cannot read as `-h`: 32 bytes in base64url, which no option is.
    private static func keyIDsAfterDoubleDash(_ arguments: [String]) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let isKeyID = { (argument: String) in argument.hasPrefix("-") && Base64URL.decode(argument)?.count == 32 }
        let keyIDs = arguments[..<end].filter(isKeyID)
        guard !keyIDs.isEmpty else { return arguments }
        let options = arguments[..<end].filter { !isKeyID($0) }
        let after = end < arguments.endIndex ? Array(arguments[arguments.index(after: end)...]) : []
        return options + ["--"] + keyIDs + after
    }
}
