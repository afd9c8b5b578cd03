import ArgumentParser
import Foundation

/// A command as argument-parser describes it to tools (`--experimental-dump-help`, its ToolInfo format, version 0):
/// its names, texts, arguments and subcommands, which the manual page is made from.
struct CommandDescription: Decodable {
    var commandName: String
    var aliases: [String]?
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool?
    var subcommands: [CommandDescription]?
    var arguments: [Argument]?

    /// An option, a flag or a positional argument.
    struct Argument: Decodable {
        /// `positional`, `option` or `flag`.
        var kind: String
        var shouldDisplay: Bool
        var isOptional: Bool
        var isRepeating: Bool
        var names: [Name]?
        var preferredName: Name?
        var valueName: String?
        var defaultValue: String?
        var abstract: String?
        var discussion: String?

        /// What the argument is known by in the tree: its preferred name, or its value's for a positional.
        var key: String { preferredName?.spelled ?? valueName ?? "" }
    }

    /// `-v` (`short`), `--verbose` (`long`) or `-help` (`longWithSingleDash`).
    struct Name: Decodable {
        var kind: String
        var name: String

        var spelled: String { (kind == "long" ? "--" : "-") + name }
    }

    private struct ToolInfo: Decodable {
        var command: CommandDescription
    }

    /// The whole tree of `command`, as argument-parser prints it for `--experimental-dump-help`; `nil` if it could
    /// not be read.
    static func tree(of command: any ParsableCommand.Type) -> CommandDescription? {
        let dump: String
        do {
            _ = try command.parseAsRoot(["--experimental-dump-help"])
            return nil
        } catch {
            dump = command.fullMessage(for: error)
        }
        return try? JSONDecoder().decode(ToolInfo.self, from: Data(dump.utf8)).command
    }

    /// Whether to show it: a command argument-parser adds (`help`) or one marked hidden is left out.
    var isShown: Bool { shouldDisplay != false && commandName != "help" }

    /// Its shown subcommands.
    var shownSubcommands: [CommandDescription] { (subcommands ?? []).filter(\.isShown) }

    /// Every shown command under it, each with its words (`["accounts", "add"]`), depth first.
    func descendants(_ words: [String] = []) -> [(words: [String], command: CommandDescription)] {
        shownSubcommands.flatMap { child in
            [(words: words + [child.commandName], command: child)] + child.descendants(words + [child.commandName])
        }
    }
}
