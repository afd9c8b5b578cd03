import Foundation

/// Writes results to stdout and messages to stderr.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes bytes to stdout exactly as given: no newline, no conversion.
    static func bytes(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Whether stdout is a terminal, where a person reads and control characters take effect.
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    static func message(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Prints a value as JSON on one line with sorted keys: every `--json` output has this one style, so a script
    /// can read it line by line and field order is stable.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
