import Foundation

/// Secrets typed or piped on standard input, one line each: the app password, then a sign-in code.
///
/// On a terminal a prompt is shown on stderr and what is typed is not echoed, as a password prompt does; from a pipe
/// each line is read as it is. Standard input is read by one ``StandardInputLines`` reader for the whole process.
actor SecretInput {
    private var lines: AsyncStream<String>.AsyncIterator?

    /// The longest line taken; a longer one is refused, not cut.
    static let maximumLength = 1_024

    /// Reads the next line after showing `prompt` on a terminal; `nil` at end of input or for a line too long.
    func next(prompt: String) async -> String? {
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
        guard var line, line.utf8.count <= Self.maximumLength else { return nil }
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}
