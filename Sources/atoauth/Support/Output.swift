import Foundation
import WireFormat

/// Writes results to stdout and messages to stderr, each made safe for a terminal on the way.
///
/// On a pipe as on a terminal, text loses every control character but tabs and line feeds (and the bidi and
/// line-separator characters), and JSON has them written as `\\uXXXX` escapes (RFC 8259 §7), the same value. Only
/// ``bytes(_:)`` writes what it is given, for `xrpc --raw` and binary answers. Messages on a terminal are wrapped
/// between words to its width (``TerminalLayout``); results on stdout, and anything on a pipe, never are. Everything
/// goes out through ``StandardStream``, so a reader that goes away (`| head`) ends the command quietly with status 141.
enum Output {
    /// Writes a line (or lines) of text on stdout.
    static func line(_ text: String) {
        StandardStream.output.write(TerminalText.printable(text) + "\n")
    }

    /// Writes JSON text and a line feed on stdout, with controls, bidi and line separators escaped.
    static func jsonLine(_ text: String) {
        StandardStream.output.write(TerminalText.escapedJSON(text) + "\n")
    }

    /// Writes bytes to stdout exactly as given: no newline, no conversion.
    static func bytes(_ data: Data) {
        StandardStream.output.write(data)
    }

    /// Whether stdout is a terminal, where a person reads and control characters take effect.
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Writes a message (or its lines) on stderr, wrapped to the terminal's width when stderr is one.
    static func message(_ text: String) {
        StandardStream.error.write(laidOut(TerminalText.printable(text)) + "\n")
    }

    /// Writes text on stderr without a line feed: a prompt, wrapped as a message is.
    static func prompt(_ text: String) {
        StandardStream.error.write(laidOut(TerminalText.printable(text)))
    }

    /// `text` wrapped for a terminal on stderr; unchanged on a pipe, and when it is a JSON object (`--json` errors
    /// and log lines are for programs, even on a terminal).
    static func laidOut(_ text: String) -> String {
        guard !text.hasPrefix("{"), let width = TerminalLayout.width(of: STDERR_FILENO) else { return text }
        return TerminalLayout.wrapped(text, width: width)
    }

    /// Prints a command's result: `value` as JSON with `--json`, else `text` on stdout.
    static func result(_ value: some Encodable, json: Bool, text: @autoclosure () -> String) throws {
        if json { try Output.json(value) } else { line(text()) }
    }

    /// Prints a value as JSON on one line with sorted keys: every `--json` output has this one style, so a script
    /// can read it line by line and field order is stable.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        jsonLine(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
