import Foundation

/// Help and usage text laid out for the terminal: as wide as `COLUMNS` says, else as the terminal on stdout, else
/// 80 columns, and never narrower than ``minimumWidth``.
///
/// The argument parser wraps paragraphs and option descriptions to the width it is given, but not the usage
/// synopsis; ``fitted(_:width:)`` wraps that line too, between whole arguments.
enum HelpLayout {
    /// The narrowest layout, as for messages: the option column alone takes 28 columns.
    static let minimumWidth = TerminalLayout.minimumWidth

    /// Makes `COLUMNS` safe for the argument parser, which reads it on its own and cannot lay help out in fewer
    /// than 29 columns: a width of 0 or less is dropped (as if unset), a smaller one raised to ``minimumWidth``.
    static func normalizeColumns() {
        guard let value = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }) else { return }
        if value <= 0 {
            unsetenv("COLUMNS")
        } else if value < minimumWidth {
            setenv("COLUMNS", String(minimumWidth), 1)
        }
    }

    /// The width to lay help out in.
    static func width(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        TerminalLayout.width(
            columns: environment["COLUMNS"],
            terminalColumns: TerminalLayout.terminalColumns(of: STDOUT_FILENO)
        ) ?? 80
    }

    /// `text` with every usage line longer than `width` wrapped between arguments, continued under the command.
    static func fitted(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.count > width, line.hasPrefix("USAGE: ") || line.hasPrefix("Usage: ") else {
                return String(line)
            }
            return wrapUsage(line, width: width)
        }
        .joined(separator: "\n")
    }

    /// The usage synopsis in lines of at most `width` (unless one argument is longer), split only between
    /// arguments: never inside `[--scope <permissions>]`.
    private static func wrapUsage(_ line: Substring, width: Int) -> String {
        let indent = String(repeating: " ", count: "USAGE: ".count)
        return TerminalLayout.filled(topLevelPieces(line), width: width, first: "", continuation: indent)
            .joined(separator: "\n")
    }

    /// The line split at spaces outside `[…]` and `<…>`.
    private static func topLevelPieces(_ line: Substring) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var depth = 0
        for character in line {
            switch character {
            case " " where depth == 0:
                if !piece.isEmpty { pieces.append(piece) }
                piece = ""
                continue
            case "[", "<": depth += 1
            case "]", ">": depth = max(0, depth - 1)
            default: break
            }
            piece.append(character)
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }
}
