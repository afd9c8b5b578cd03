import Foundation

/// Messages laid out for the terminal a person reads: wrapped between words to its width, as `--help` is.
///
/// Only a terminal gets a layout; on a pipe or in a file each line is left whole, for scripts and logs.
enum TerminalLayout {
    /// The narrowest width wrapped to, as for help.
    static let minimumWidth = 40

    /// The width to wrap text written to `descriptor` at, or `nil` when it is not a terminal (nothing is wrapped).
    static func width(
        of descriptor: Int32,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        return width(columns: environment["COLUMNS"], terminalColumns: terminalColumns(of: descriptor))
    }

    /// The width the terminal on `descriptor` reports (`TIOCGWINSZ`), or `nil` when it is no terminal or says 0.
    static func terminalColumns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The width for `COLUMNS` and the terminal's own width (`TIOCGWINSZ`).
    ///
    /// `COLUMNS` when it is a positive number, else the terminal's width; never under ``minimumWidth``. `nil` when
    /// neither says (a terminal that reports no size): its lines are left whole rather than guessed at.
    static func width(columns: String?, terminalColumns: Int?) -> Int? {
        if let columns = columns.flatMap({ Int($0) }), columns > 0 { return max(columns, minimumWidth) }
        if let terminalColumns, terminalColumns > 0 { return max(terminalColumns, minimumWidth) }
        return nil
    }

    /// `text` with each line longer than `width` columns broken between words.
    ///
    /// A continuation keeps its line's indentation (and hangs under the text of a `- ` or `* ` item); a word longer
    /// than the width, such as a URL or a path, is never broken: it gets a line of its own.
    static func wrapped(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { wrappedLine($0, width: width) }
            .joined(separator: "\n")
    }

    private static func wrappedLine(_ line: Substring, width: Int) -> String {
        guard displayWidth(line) > width else { return String(line) }
        let indent = String(line.prefix { $0 == " " })
        let text = line.dropFirst(indent.count)
        var hanging = indent
        if text.hasPrefix("- ") || text.hasPrefix("* ") { hanging += "  " }
        if hanging.count > width / 2 { hanging = "" }
        let lines = filled(text.split(separator: " "), width: width, first: indent, continuation: hanging)
        // A prompt's trailing space stays, so the answer does not touch it.
        return lines.joined(separator: "\n") + (line.hasSuffix(" ") ? " " : "")
    }

    /// `pieces` joined by spaces into lines of at most `width` columns, filled greedily: the first line starts with
    /// `first`, the others with `continuation`; a piece wider than the width gets a line of its own.
    static func filled(
        _ pieces: [some StringProtocol],
        width: Int,
        first: String,
        continuation: String
    ) -> [String] {
        var lines: [String] = []
        var current = first
        var currentWidth = displayWidth(first)
        var empty = true
        for piece in pieces {
            let pieceWidth = displayWidth(piece)
            if empty {
                current += piece
                currentWidth += pieceWidth
                empty = false
            } else if currentWidth + 1 + pieceWidth <= width {
                current += " " + piece
                currentWidth += 1 + pieceWidth
            } else {
                lines.append(current)
                current = continuation + piece
                currentWidth = displayWidth(continuation) + pieceWidth
            }
        }
        lines.append(current)
        return lines
    }

    /// The columns `text` takes on a terminal: two for a wide (East Asian or emoji) character, none for a combining
    /// mark or a format character, one for any other.
    static func displayWidth(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    private static func columns(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, !first.isASCII else { return 1 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        return scalars.contains(where: isWide) ? 2 : 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: true
        default: false
        }
    }

    /// East Asian Wide and Fullwidth characters (UAX #11) and emoji shown as pictures.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        return switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
