import Foundation
import Testing

/// What a person sees on a terminal (a pseudo-terminal of a set width, through pty_run.py) against what a script
/// reads from a pipe: messages wrapped between words, `whoami` labelled, `accounts list` in columns.
@Suite("Output laid out for a terminal", .serialized)
struct TerminalOutputTests {
    /// Runs `atoauth arguments…` with stdin, stdout and stderr on a terminal `width` columns wide (and `COLUMNS` when
    /// given); returns the status and the screen's lines.
    static func onTerminal(
        _ arguments: [String],
        width: Int,
        columns: Int? = nil,
        environment: [String: String]
    ) async throws -> (status: Int32, lines: [Substring]) {
        let executable = try #require(CLIProcess.executable)
        // pty_run.py drops COLUMNS from the environment; env(1) sets it again for atoauth alone.
        let program = ["/usr/bin/env"] + (columns.map { ["COLUMNS=\($0)"] } ?? []) + [executable.path]
        let result = try await CLIProcess.run(
            ["python3", HelpText.ptyScript.path, "\(width)"] + program + arguments,
            environment: environment,
            executable: URL(fileURLWithPath: "/usr/bin/env")
        )
        let screen = result.stdout.replacingOccurrences(of: "\r", with: "")
        return (result.status, screen.split(separator: "\n"))
    }

    @Test("a message wraps between words to the terminal's width, and stays one line on a pipe", arguments: [40, 56])
    func messageWraps(_ width: Int) async throws {
        try await ScratchHome.with { scratch in
            let piped = try await scratch.atoauth(["whoami"])
            #expect(piped.status == 3)
            let message = piped.stderr.trimmingCharacters(in: .newlines)
            #expect(message.count > 60 && !message.contains("\n"), "\(piped.stderr)")

            let terminal = try await Self.onTerminal(["whoami"], width: width, environment: scratch.environment)
            #expect(terminal.status == 3)
            #expect(terminal.lines.count > 1)
            #expect(terminal.lines.allSatisfy { $0.count <= width }, "\(terminal.lines)")
            #expect(terminal.lines.joined(separator: " ") == message, "the same words, none broken")
        }
    }

    @Test("COLUMNS sets the width messages wrap at on a terminal")
    func columnsVariable() async throws {
        try await ScratchHome.with { scratch in
            let terminal = try await Self.onTerminal(
                ["whoami"],
                width: 200,
                columns: 45,
                environment: scratch.environment
            )
            #expect(terminal.status == 3)
            #expect(terminal.lines.count > 1)
            #expect(terminal.lines.allSatisfy { $0.count <= 45 }, "\(terminal.lines)")
        }
    }

    @Test("whoami labels its fields on a terminal, and keeps the one line of the contract on a pipe")
    func whoamiLabels() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            let pds = world.sandbox.pds.absoluteString
            #expect(try await world.atoauth("whoami").stdout == "alice.test \(did) \(pds) oauth\n")

            let terminal = try await Self.onTerminal(["whoami"], width: 100, environment: world.environment)
            #expect(terminal.status == 0)
            #expect(
                terminal.lines == [
                    "Handle:  alice.test", Substring("DID:     \(did)"), Substring("PDS:     \(pds)"), "Kind:    oauth",
                ]
            )
        }
    }

    @Test("accounts list aligns its columns under a header on a terminal; a pipe keeps single spaces")
    func listColumns() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))
            let pds = world.sandbox.pds.absoluteString
            let piped = try await world.atoauth("accounts", "list")
            #expect(
                Set(piped.stdout.split(separator: "\n").map { String($0) })
                    == ["  alice.test \(alice) \(pds) oauth", "* bob.test \(bob) \(pds) oauth"]
            )

            let terminal = try await Self.onTerminal(["accounts", "list"], width: 200, environment: world.environment)
            #expect(terminal.status == 0)
            let header =
                "  HANDLE      DID" + String(repeating: " ", count: alice.count - 1) + "PDS"
                + String(repeating: " ", count: pds.count - 1) + "KIND"
            #expect(terminal.lines.first.map { String($0) } == header)
            #expect(
                Set(terminal.lines.dropFirst().map { String($0) })
                    == ["  alice.test  \(alice)  \(pds)  oauth", "* bob.test    \(bob)  \(pds)  oauth"]
            )
        }
    }
}
