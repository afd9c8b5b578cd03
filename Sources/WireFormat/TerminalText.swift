/// Text from a server or a user made safe to print on a terminal or in a log line.
///
/// Removes what could move the cursor, rewrite the screen or reorder what the reader sees: C0 controls (but a
/// tab becomes a space), DEL, C1 controls (U+0080–U+009F, which include the 8-bit CSI), and the Unicode bidi
/// controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069). Line breaks, the Unicode line and paragraph
/// separators (U+2028, U+2029) included, become spaces. Text longer than the
/// limit is cut there, at a character boundary, and “…” is added.
public enum TerminalText {
    /// The text with every control removed, at most `limit` characters long.
    public static func sanitized(_ text: some StringProtocol, limit: Int = 300) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: scalars.append(" ")
            case _ where isUnsafe(scalar): continue
            default: scalars.append(scalar)
            }
        }
        let cleaned = String(scalars)
        guard cleaned.count > limit else { return cleaned }
        return String(cleaned.prefix(limit)) + "…"
    }

    /// The text with every control removed but tabs and line feeds, uncut: lines of output as they may reach a
    /// terminal, laid out as written.
    public static func printable(_ text: some StringProtocol) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A: scalars.append(scalar)
            case 0x2028, 0x2029: scalars.append(" ")
            case _ where isUnsafe(scalar): continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Whether the text would print unchanged (and uncut up to `limit`).
    public static func isSafe(_ text: some StringProtocol, limit: Int = .max) -> Bool {
        sanitized(text, limit: limit) == String(text)
    }

    /// Whether the text prints as is on a terminal: no control or bidi character but tabs and line breaks.
    public static func printsAsIs(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { [0x09, 0x0A, 0x0D].contains($0.value) || !isUnsafe($0) }
    }

    /// JSON text with every control, line or paragraph separator and bidi character written as a `\\uXXXX` escape (RFC 8259 §7): the same JSON
    /// value, safe to print.
    ///
    /// Outside strings JSON text holds only structural characters and whitespace, so the characters escaped here
    /// can only be inside strings, where the escape means the same character. Line breaks and tabs between tokens
    /// (the pretty-printer's layout) are kept.
    public static func escapedJSON(_ json: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: result.append(scalar)
            case _ where isUnsafe(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// C0 controls, DEL, C1 controls, the Unicode line and paragraph separators (which JavaScript and some terminals
    /// take as line breaks) and the bidi controls: what must never reach a terminal as is.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
