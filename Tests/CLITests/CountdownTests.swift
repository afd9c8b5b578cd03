import Foundation
import Testing

/// The waiting line of a sign-in on a real pseudo-terminal: it fits the terminal's width and follows a resize.
@Suite("The sign-in's waiting line on a terminal", .serialized)
struct CountdownTests {
    @Test("on a 50-column terminal every drawing of the line fits in one row, so ticks add no lines")
    func narrowTerminal() async throws {
        try await CLIWorld.with { world in
            let output = try await Self.waitOnTerminal(world, columns: 50)
            let drawings = Self.drawings(in: output)
            #expect(drawings.count >= 2, "the line was drawn on several ticks: \(output)")
            for drawing in drawings {
                #expect(drawing.count <= 49, "“\(drawing)” is wider than the terminal")
            }
            #expect(drawings.contains { $0.hasPrefix("Waiting") && $0.hasSuffix("left)…") }, "\(drawings)")
        }
    }

    @Test("after the terminal shrinks, the line is drawn to the new width")
    func resizedTerminal() async throws {
        try await CLIWorld.with { world in
            let output = try await Self.waitOnTerminal(world, columns: 120, resize: "24:left)…")
            let marker = try #require(output.range(of: "[pty: resized]"), "\(output)")
            let before = Self.drawings(in: String(output[..<marker.lowerBound]))
            let after = Self.drawings(in: String(output[marker.upperBound...]))
            #expect(before.allSatisfy { $0.count <= 119 })
            let last = try #require(after.last, "the line was drawn after the resize: \(output)")
            #expect(last.count <= 23, "“\(last)” is wider than the resized terminal")
            #expect(before.contains { $0.hasSuffix("Ctrl-C cancels.") }, "the wide form first: \(before)")
        }
    }

    /// Runs `accounts add alice.test --no-browser --timeout 4` on a pseudo-terminal of `columns`, resized as
    /// `resize` (`COLUMNS:TEXT`, once TEXT is printed) says, and returns everything it printed; the wait times out
    /// (exit 1).
    static func waitOnTerminal(_ world: CLIWorld, columns: Int, resize: String? = nil) async throws -> String {
        let executable = try #require(CLIProcess.executable)
        var environment = world.environment
        environment["PTY_RESIZE"] = resize
        let result = try await CLIProcess.run(
            [
                "python3", HelpText.ptyScript.path, "\(columns)", executable.path, "accounts", "add", "alice.test",
                "--no-browser", "--timeout", "4",
            ],
            environment: environment,
            executable: URL(fileURLWithPath: "/usr/bin/env")
        )
        #expect(result.status == 1, "\(result.stdout)")
        return result.stdout
    }

    /// Each drawing of the waiting line: the text after a carriage return and "erase line", up to the next one.
    static func drawings(in output: String) -> [String] {
        output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").flatMap { row in
            row.components(separatedBy: "\r\u{1B}[K").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.contains(" left") }
        }
    }
}
