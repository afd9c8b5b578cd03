import Foundation
import Testing

@testable import atoauth

/// `atoauth --generate-manual`: a man page made from the commands, its text filled by groff to the terminal's width.
@Suite("The man page")
struct ManualPageTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let sections = [
        "NAME", "SYNOPSIS", "DESCRIPTION", "GLOBAL OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES",
        "EXAMPLES", "SEE ALSO",
    ]

    /// The page as `atoauth --generate-manual` prints it, rendered by groff for a terminal of `width` columns as
    /// plain text (no bold or underline); any groff warning fails the test.
    static func rendered(width: Int, in scratch: ScratchHome) async throws -> [Substring] {
        let page = try await scratch.atoauth([ManualPage.flag])
        #expect(page.status == 0, "\(page.stderr)")
        let file = scratch.directory.appendingPathComponent("atoauth.1")
        try Data(page.stdout.utf8).write(to: file)
        let rendered = try await CLIProcess.run(
            ["-man", "-Tutf8", "-ww", "-rLL=\(width)n", "-P-c", "-P-b", "-P-o", "-P-u", file.path],
            environment: scratch.environment,
            executable: URL(fileURLWithPath: "/usr/bin/groff")
        )
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "groff: \(rendered.stderr)")
        return rendered.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("rendered by groff at 80 columns, no line is wider than 80, and every section is there")
    func fitsEightyColumns() async throws {
        try await ScratchHome.with { scratch in
            let lines = try await Self.rendered(width: 80, in: scratch)
            let wide = lines.filter { $0.count > 80 }
            #expect(wide.isEmpty, "\(wide.count) lines wider than 80:\n\(wide.joined(separator: "\n"))")
            for section in Self.sections {
                #expect(lines.contains(Substring(section)), "no \(section) section")
            }
            #expect(lines.contains { $0.hasPrefix("ATOAUTH(1)") })
            #expect((lines.map(\.count).max() ?? 0) > 72, "the text is filled to the width")
        }
    }

    @Test("the text is filled by the formatter: a wider terminal gets longer lines, and fewer of them")
    func filledToTheWidth() async throws {
        try await ScratchHome.with { scratch in
            let narrow = try await Self.rendered(width: 80, in: scratch)
            let wide = try await Self.rendered(width: 132, in: scratch)
            #expect(wide.allSatisfy { $0.count <= 132 })
            #expect((wide.map(\.count).max() ?? 0) > 110)
            #expect(wide.count < narrow.count * 9 / 10, "\(wide.count) lines at 132 columns, \(narrow.count) at 80")
        }
    }

    @Test("every command has its section, naming every option and argument its --help shows")
    func everyCommandAndOption() async throws {
        try await ScratchHome.with { scratch in
            let lines = try await Self.rendered(width: 80, in: scratch)
            let dump = try await scratch.atoauth(["--experimental-dump-help"])
            let tree = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
            let commands = Self.commands(in: try #require(tree["command"] as? [String: Any]))
            #expect(commands.count >= HelpTests.commands.count - 1)
            let headings = lines.indices.filter { lines[$0].hasPrefix("   atoauth ") }
            for (name, shown) in commands {
                let start = try #require(
                    headings.first { lines[$0].dropFirst(3) == name },
                    "no subsection for \(name)"
                )
                let end = headings.first { $0 > start } ?? lines.count
                let section = lines[start..<end].joined(separator: " ")
                for argument in shown {
                    #expect(section.contains(argument), "\(name): \(argument)")
                }
            }
        }
    }

    @Test("ENVIRONMENT names every variable docs/cli.md lists, and only variables atoauth reads")
    func environment() throws {
        let names = ManualPage.environment.map(\.term)
        let cli = try String(contentsOf: Self.repository.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let table =
            cli.components(separatedBy: "## Environment variables").last?
            .components(separatedBy: "\n## ").first ?? ""
        let documented = table.split(separator: "\n").compactMap { row -> String? in
            guard row.hasPrefix("| `") else { return nil }
            return row.dropFirst(3).prefix { $0 != "`" }.description
        }
        #expect(documented.count > 15)
        for variable in documented {
            #expect(names.contains(variable), "\(variable) is in docs/cli.md but not in the man page")
        }
        let sources = try Self.swiftSources().joined()
        for variable in names {
            #expect(sources.contains("\"\(variable)\""), "\(variable) is in the man page but atoauth never reads it")
        }
    }

    /// Every command under `command` by its full name, with the names of the arguments its help shows (the preferred
    /// name of an option or flag, the value of a positional), but `--help` and `--version`.
    static func commands(in command: [String: Any], words: [String] = []) -> [(String, [String])] {
        let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter {
            $0["commandName"] as? String != "help" && $0["shouldDisplay"] as? Bool != false
        }
        return subcommands.flatMap { subcommand -> [(String, [String])] in
            let path = words + [subcommand["commandName"] as? String ?? ""]
            let shown = (subcommand["arguments"] as? [[String: Any]] ?? []).compactMap { argument -> String? in
                guard argument["shouldDisplay"] as? Bool == true else { return nil }
                if let name = argument["preferredName"] as? [String: String] {
                    let spelled = (name["kind"] == "long" ? "--" : "-") + (name["name"] ?? "")
                    return ["--help", "--version"].contains(spelled) ? nil : spelled
                }
                return argument["valueName"] as? String
            }
            return [("atoauth " + path.joined(separator: " "), shown)] + commands(in: subcommand, words: path)
        }
    }

    /// The text of every Swift file under Sources but the man page's own.
    static func swiftSources() throws -> [String] {
        let sources = repository.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.lastPathComponent.hasPrefix("ManualPage") } ?? []
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }
    }
}
