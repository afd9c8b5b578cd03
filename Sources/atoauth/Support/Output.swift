import Foundation
import WireFormat

/// Writes results to stdout and messages to stderr, each made safe for a terminal on the way.
///
/// On a pipe as on a terminal, text loses every control character but tabs and line feeds (and the bidi and
/// line-separator characters), and JSON has them written as `\\uXXXX` escapes (RFC 8259 §7), the same value. Only
/// ``bytes(_:)`` writes what it is given, for `xrpc --raw` and binary answers. Everything goes out through
/// ``StandardStream``, so a reader that goes away (`| head`) ends the command quietly with status 141.
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

    /// Writes a message (or its lines) on stderr.
    static func message(_ text: String) {
        StandardStream.error.write(TerminalText.printable(text) + "\n")
    }

    /// Writes text on stderr without a line feed: a prompt.
    static func prompt(_ text: String) {
        StandardStream.error.write(TerminalText.printable(text))
    }

    /// Prints a value as JSON on one line with sorted keys: every `--json` output has this one style, so a script
    /// can read it line by line and field order is stable.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        jsonLine(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
