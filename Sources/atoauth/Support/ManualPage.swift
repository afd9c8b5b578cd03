import ArgumentParser
import Foundation

/// The man page `atoauth(1)` that `atoauth --generate-manual` prints, in man(7) roff.
///
/// NAME, DESCRIPTION and COMMANDS are made from the commands themselves (argument-parser's description of the tree:
/// abstracts, discussions and every option), so the page never drifts from `--help`; the text is filled by the
/// formatter to the terminal's width. Options most commands share are described once, under GLOBAL OPTIONS. EXIT
/// STATUS, ENVIRONMENT, FILES and EXAMPLES follow docs/cli.md (``ManualPage/exitStatuses`` and the others).
/// `scripts/install` installs it.
enum ManualPage {
    /// The flag that prints it, beside ArgumentParser's `--generate-completion-script`.
    static let flag = "--generate-manual"

    /// The whole page.
    static func roff(date: Date = Date()) -> String {
        let root = ATOAuthCommand.configuration
        let day = ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: [.withFullDate])
        let tree = CommandDescription.tree(of: ATOAuthCommand.self)
        let commands = tree?.descendants() ?? []
        let shared = SharedOptions(commands.map(\.command))
        var lines = [
            #".TH ATOAUTH 1 "\#(day)" "atoauth \#(root.version)" "User Commands""#,
            // Left-aligned, never hyphenated: option names and URLs stay whole.
            ".ad l", ".nh",
            ".SH NAME", "atoauth \\- " + Roff.escaped(root.abstract),
            ".SH SYNOPSIS",
            Roff.bold("atoauth") + " [" + Roff.italic("global options") + "] " + Roff.italic("command") + " ["
                + Roff.italic("options") + "] [" + Roff.italic("arguments") + "]",
            ".br",
            Roff.bold("atoauth") + " " + Roff.bold("--help") + " | " + Roff.bold("--version") + " | "
                + Roff.bold(flag) + " | "
                + Roff.unbroken(
                    Roff.bold("--generate-completion-script") + " "
                        + Roff.italic("bash|zsh|fish")
                ),
            ".SH DESCRIPTION",
        ]
        lines += Roff.paragraphs(root.discussion)
        lines += [".SH GLOBAL OPTIONS", Roff.line(globalOptionsIntroduction)]
        lines += shared.arguments.flatMap(item) + (tree?.arguments ?? []).filter(\.shouldDisplay).flatMap(item)
        lines.append(".SH COMMANDS")
        for (words, command) in commands {
            lines += section(words: words, command: command, shared: shared)
        }
        lines += reference
        return lines.joined(separator: "\n") + "\n"
    }

    private static let globalOptionsIntroduction =
        "The options commands share, each described once. They may come before or after the command words, as "
        + "`--option value` or `--option=value`. Each command "
        + "takes only those it can use (named at the end of its section below) and refuses the others; a variable "
        + "sets an option for the commands that take it, and the command line wins over it."

    /// One command's subsection: its synopsis, texts, own options, the global options it takes and its subcommands.
    private static func section(words: [String], command: CommandDescription, shared: SharedOptions) -> [String] {
        let name = "atoauth " + words.joined(separator: " ")
        let arguments = (command.arguments ?? []).filter { $0.shouldDisplay && !SharedOptions.isBuiltIn($0) }
        let own = arguments.filter { !shared.describes($0) }
        let global = arguments.filter { shared.describes($0) }
        let subcommands = command.shownSubcommands
        // A group without options of its own is used through its commands.
        let synopsis = own.isEmpty && !subcommands.isEmpty ? [Roff.italic("command")] : own.map(usage)
        var lines = [".SS \"\(Roff.escaped(name))\"", ([Roff.bold(name)] + synopsis).joined(separator: " ")]
        if let aliases = command.aliases {
            let parent = "atoauth " + words.dropLast().joined(separator: " ")
            lines += [".br", "Also " + aliases.map { Roff.bold(parent + " " + $0) }.joined(separator: ", ") + "."]
        }
        lines += Roff.paragraphs(command.abstract ?? "") + Roff.paragraphs(command.discussion ?? "")
        if !own.isEmpty {
            lines += [".PP", "Options:"] + own.flatMap(item)
        }
        if !global.isEmpty {
            lines += [".PP", "Global options: " + global.map { Roff.bold($0.key) }.joined(separator: ", ") + "."]
        }
        if !subcommands.isEmpty {
            let list = subcommands.map { Roff.bold($0.commandName) }.joined(separator: ", ")
            lines += [
                ".PP",
                "Commands: " + list + " (each below, as " + Roff.bold(name) + " " + Roff.italic("command")
                    + ").",
            ]
        }
        return lines
    }

    /// An argument in a synopsis: `[--scope permissions]`, kept on one line.
    private static func usage(_ argument: CommandDescription.Argument) -> String {
        var text =
            switch argument.kind {
            case "positional": Roff.italic(argument.valueName ?? "argument")
            case "flag": Roff.bold(argument.key)
            default: Roff.bold(argument.key) + " " + Roff.italic(argument.valueName ?? "value")
            }
        if argument.isRepeating { text += " ..." }
        if argument.isOptional { text = "[" + text + "]" }
        return Roff.unbroken(text)
    }

    /// An argument as a tagged paragraph: its names and value, then what it does and its default.
    private static func item(_ argument: CommandDescription.Argument) -> [String] {
        let value = Roff.italic(argument.valueName ?? "value")
        let tag =
            switch argument.kind {
            case "positional": value
            case "flag": (argument.names ?? []).map { Roff.bold($0.spelled) }.joined(separator: ", ")
            default: (argument.names ?? []).map { Roff.bold($0.spelled) }.joined(separator: ", ") + " " + value
            }
        var text = argument.abstract ?? ""
        if let value = argument.defaultValue { text += " (default: \(value))" }
        return [".TP", tag, Roff.line(text)]
            + (argument.discussion.map { Roff.paragraphs($0, paragraph: ".IP") } ?? [])
    }
}
