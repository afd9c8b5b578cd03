import Foundation
import Testing

/// Help fits the terminal, lists each command's own options first, and usage errors say exactly what is wrong.
@Suite("Help and usage messages")
struct HelpTests {
    /// Every command, by the words that name it.
    static let commands: [[String]] = [
        [], ["accounts"], ["accounts", "add"], ["accounts", "list"], ["accounts", "status"], ["accounts", "switch"],
        ["accounts", "upgrade"], ["accounts", "remove"], ["whoami"], ["xrpc"], ["gateway"], ["doctor"], ["client"],
        ["client", "keygen"],
        ["client", "keys"], ["client", "remove-key"], ["client", "metadata"], ["client", "check"], ["sandbox"],
        ["demo"],
    ]

    @Test("the command list here is every command atoauth has")
    func everyCommand() async throws {
        try await ScratchHome.with { scratch in
            let root = HelpText(try await scratch.atoauth(["--help"]).stdout)
            #expect(
                root.subcommands == ["accounts", "whoami", "xrpc", "gateway", "doctor", "client", "sandbox", "demo"]
            )
            let accounts = HelpText(try await scratch.atoauth(["accounts", "--help"]).stdout)
            #expect(accounts.subcommands == ["add", "list", "status", "switch", "upgrade", "remove"])
            let client = HelpText(try await scratch.atoauth(["client", "--help"]).stdout)
            #expect(client.subcommands == ["keygen", "keys", "remove-key", "metadata", "check"])
        }
    }

    @Test("no help line is wider than COLUMNS, and a wide terminal gets wide paragraphs", arguments: [64, 80, 132])
    func fitsTheWidth(_ width: Int) async throws {
        try await ScratchHome.with { scratch in
            var widest = 0
            for command in Self.commands {
                let help = try await scratch.atoauth(command + ["--help"], extraEnvironment: ["COLUMNS": "\(width)"])
                #expect(help.status == 0, "\(command): \(help.stderr)")
                let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                for line in lines { #expect(line.count <= width, "\(command) at \(width): \(line)") }
                widest = max(widest, lines.map(\.count).max() ?? 0)
            }
            #expect(widest > width - 12, "paragraphs are filled to the width, not kept at a fixed one")
        }
    }

    @Test("on a terminal without COLUMNS, help is laid out for the terminal's own width")
    func terminalWidth() async throws {
        let executable = try #require(CLIProcess.executable)
        for width in [70, 150] {
            let result = try await CLIProcess.run(
                ["python3", HelpText.ptyScript.path, "\(width)", executable.path, "xrpc", "--help"],
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
                executable: URL(fileURLWithPath: "/usr/bin/env")
            )
            #expect(result.status == 0, "\(result.stdout)")
            let lines = result.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("USAGE: atoauth xrpc") })
            #expect(lines.allSatisfy { $0.count <= width }, "\(width)")
            #expect((lines.map(\.count).max() ?? 0) > width - 12, "\(width)")
        }
    }

    @Test("a tiny or nonsensical COLUMNS still prints help", arguments: ["1", "0", "-3", "wide"])
    func oddColumns(_ columns: String) async throws {
        try await ScratchHome.with { scratch in
            let help = try await scratch.atoauth(["accounts", "add", "--help"], extraEnvironment: ["COLUMNS": columns])
            #expect(help.status == 0, "\(help.stderr)")
            #expect(help.stdout.contains("--callback-port"))
            #expect(!help.stderr.contains("Fatal error"))
        }
    }

    @Test("the usage line wraps between arguments, never inside one")
    func usageLine() async throws {
        try await ScratchHome.with { scratch in
            let help = try await scratch.atoauth(["accounts", "add", "--help"], extraEnvironment: ["COLUMNS": "64"])
            let usage = help.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("USAGE:") } ?? ""
            #expect(usage.contains("\n"), "the synopsis is longer than 64 columns: \(usage)")
            for line in usage.split(separator: "\n").dropFirst() {
                #expect(
                    line.hasPrefix("       ") && !line.hasPrefix("        "),
                    "continued under the command: \(line)"
                )
                let opens = line.filter { $0 == "[" || $0 == "<" }.count
                let closes = line.filter { $0 == "]" || $0 == ">" }.count
                #expect(opens == closes, "\(line)")
            }
        }
    }

    /// A bad value and the words its message must hold.
    struct BadValue: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badValues: [BadValue] = [
        BadValue(arguments: ["--timeout", "-5"], message: "--timeout must be a number of seconds from 1 to 86400."),
        BadValue(arguments: ["--timeout", "abc"], message: "The value 'abc' is invalid for '--timeout <timeout>'"),
        BadValue(
            arguments: ["--timeout", "999999"],
            message: "--timeout must be a number of seconds from 1 to 86400."
        ),
        BadValue(arguments: ["--timeout", "0"], message: "--timeout must be a number of seconds from 1 to 86400."),
        BadValue(arguments: ["--callback-port", "70000"], message: "--callback-port must be between 1 and 65535."),
        BadValue(arguments: ["--callback-port", "-1"], message: "--callback-port must be between 1 and 65535."),
        BadValue(
            arguments: ["--callback-port", "http"],
            message: "The value 'http' is invalid for '--callback-port <callback-port>'"
        ),
        BadValue(arguments: ["--timeout"], message: "Missing value for '--timeout <timeout>'"),
    ]

    @Test("a bad option value gets a message about that value, exit 2", arguments: badValues)
    func badOptionValue(_ bad: BadValue) async throws {
        try await ScratchHome.with { scratch in
            let result = try await scratch.atoauth(["accounts", "add", "alice.test", "--no-browser"] + bad.arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains(bad.message), "\(result.stderr)")
            #expect(bad.arguments.count == 1 || !result.stderr.contains("Missing value"), "\(result.stderr)")
        }
    }

    @Test("xrpc's --max-pages: out of range, not a number, or without --paginate")
    func maxPages() async throws {
        try await ScratchHome.with { scratch in
            let method = ["xrpc", "com.atproto.repo.listRecords"]
            for (arguments, message) in [
                (["--paginate", "--max-pages", "-1"], "--max-pages must be a number of pages from 1 to 1000000."),
                (["--paginate", "--max-pages", "0"], "--max-pages must be a number of pages from 1 to 1000000."),
                (["--paginate", "--max-pages", "ten"], "The value 'ten' is invalid for '--max-pages <n>'"),
                (["--max-pages", "5"], "--max-pages limits --paginate; give --paginate too."),
            ] {
                let result = try await scratch.atoauth(method + arguments)
                #expect(result.status == 2)
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            }
        }
    }

    @Test("a mistyped command gets a suggestion, in words or in JSON")
    func suggestions() async throws {
        try await ScratchHome.with { scratch in
            for (arguments, suggestion) in [
                (["xrpx", "com.atproto.server.getSession"], "atoauth xrpc"),
                (["accounts", "stauts"], "atoauth accounts status"), (["-v", "whoamii"], "atoauth whoami"),
            ] {
                let result = try await scratch.atoauth(arguments)
                #expect(result.status == 2)
                #expect(result.stderr.contains("Did you mean `\(suggestion)`?"), "\(result.stderr)")
                let json = try await scratch.atoauth(arguments + ["--json"])
                let object = try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any]
                #expect(object?["message"] as? String == "No such command. Did you mean `\(suggestion)`?")
            }
        }
    }
}

/// The parts of a help screen the tests look at.
struct HelpText {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static let ptyScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("pty_run.py")

    /// The lines of a section such as `OPTIONS`.
    func section(_ name: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(name + ":")) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// The long names of the options, in the order shown.
    var optionNames: [String] {
        section("OPTIONS").filter { $0.hasPrefix("  -") }.compactMap { line in
            let label = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            return label.split(separator: " ").map { $0.trimmingCharacters(in: [","]) }.first { $0.hasPrefix("--") }
        }
    }

    /// The subcommand names, in the order shown (without their aliases: `list, ls`).
    var subcommands: [String] {
        section("SUBCOMMANDS").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap { line in
            line.split(separator: " ").first.map { $0.trimmingCharacters(in: [","]) }
        }
    }
}
