import Foundation

/// Secrets typed or piped on standard input, one line each: the app password, then a sign-in code.
///
/// On a terminal a prompt is shown on stderr and what is typed is not echoed, as a password prompt does; from a pipe
/// each line is read as it is. Standard input is read by one ``StandardInputLines`` reader for the whole process.
actor SecretInput {
    private var lines: AsyncStream<String>.AsyncIterator?

    /// The longest line taken; a longer one is refused, not cut.
    static let maximumLength = 1_024

    /// Reads the next line, the `what` (such as "app password"), after showing `prompt` on a terminal; `nil` at end
    /// of input.
    ///
    /// - Throws: a usage failure naming `what` and the limit for a line longer than ``maximumLength``.
    func next(_ what: String, prompt: String) async throws -> String? {
        let terminal = isatty(STDIN_FILENO) == 1
        if terminal {
            TerminalEcho.hide()
            Output.prompt(prompt + " (it is not shown): ")
        }
        defer {
            if terminal {
                TerminalEcho.restore()
                StandardStream.error.write("\n")
            }
        }
        var iterator = lines ?? StandardInputLines.shared.makeAsyncIterator()
        let line = await iterator.next(isolation: #isolation)
        lines = iterator
        guard var line else { return nil }
        if line.hasSuffix("\r") { line.removeLast() }
        guard line.utf8.count <= Self.maximumLength else {
            throw CLIFailure(
                status: .usage,
                message: "The \(what) on standard input is longer than \(Self.maximumLength) bytes, the most taken; "
                    + "it was refused, not cut. Check that the line holds the \(what) alone."
            )
        }
        return line
    }
}
