import Foundation

/// Text written as man(7) roff: escaped, filled by the formatter, with examples kept as laid out.
enum Roff {
    /// The widest line of an example kept as laid out, so that under a subsection's indentation it fits 80 columns
    /// (and the 78 man(1) lays pages out in there).
    static let exampleWidth = 64

    /// `text` safe as roff input: a backslash becomes `\e`; `-` the minus `\-` (as options are written, never
    /// hyphenated or turned into a dash); quotes, `^` and `~` their ASCII glyphs; a character outside ASCII its
    /// `\[uXXXX]` escape (roff reads bytes, not UTF-8).
    static func escaped(_ text: some StringProtocol) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "'": escaped += "\\(aq"
            case "`": escaped += "\\(ga"
            case "^": escaped += "\\(ha"
            case "~": escaped += "\\(ti"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return escaped
    }

    /// `text` as one input line of running text: escaped, `` `code` `` in bold, and a leading `.` kept from reading
    /// as a request.
    static func line(_ text: some StringProtocol) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        // Backquotes in pairs mark code; an odd one out is kept as written.
        let line =
            parts.count % 2 == 1
            ? parts.enumerated().map { $0.offset % 2 == 1 ? bold($0.element) : escaped($0.element) }.joined()
            : escaped(text)
        return line.hasPrefix(".") ? "\\&" + line : line
    }

    /// `text` in bold.
    static func bold(_ text: some StringProtocol) -> String { "\\fB" + escaped(text) + "\\fR" }

    /// `text` in italics (underlined on a terminal).
    static func italic(_ text: some StringProtocol) -> String { "\\fI" + escaped(text) + "\\fR" }

    /// `text` as words that stay on one output line: its spaces unbreakable.
    static func unbroken(_ roff: String) -> String { roff.replacingOccurrences(of: " ", with: "\\ ") }

    /// A help text (an abstract or a discussion) as paragraphs, each opened with `paragraph` (`.PP`, or `.IP` inside
    /// an option's description).
    ///
    /// Blank lines separate paragraphs; the lines of a paragraph are filled, each line break kept; indented lines
    /// (examples) are kept as laid out, indented, and folded at ``exampleWidth`` as a shell continues a line.
    static func paragraphs(_ text: String, paragraph: String = ".PP") -> [String] {
        var lines: [String] = []
        for block in text.components(separatedBy: "\n\n") where !block.trimmingCharacters(in: .whitespaces).isEmpty {
            lines.append(paragraph)
            var example: [Substring] = []
            var afterText = false
            for line in block.split(separator: "\n") {
                if line.hasPrefix(" ") {
                    example.append(line)
                    continue
                }
                if !example.isEmpty {
                    lines += self.example(example)
                    example = []
                } else if afterText {
                    lines.append(".br")
                }
                lines.append(self.line(line))
                afterText = true
            }
            if !example.isEmpty { lines += self.example(example) }
        }
        return lines
    }

    /// Lines kept as laid out (no filling), indented by 4, their common indentation taken off.
    static func example(_ block: [Substring]) -> [String] {
        let indent = block.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        let lines = block.flatMap { folded(String($0.dropFirst(indent)), width: exampleWidth) }
        return [".RS 4", ".nf"] + lines.map { line($0) } + [".fi", ".RE"]
    }

    /// A line longer than `width` broken at spaces, as a shell command is continued.
    ///
    /// Each piece but the last ends in ` \` and the others are indented two more. A piece breaks before its last
    /// option (a word starting with `-`) when that is past its first third, else at its last space; a piece with no
    /// space to break at stays long.
    static func folded(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        let lead = line.prefix { $0 == " " }.count
        let indent = String(repeating: " ", count: lead + 2)
        // Runs of spaces inside the line go, as they would mean nothing across the breaks.
        var rest = Substring(line.prefix(lead) + line.dropFirst(lead).split(separator: " ").joined(separator: " "))
        var pieces: [String] = []
        while rest.count > width {
            let start = rest.prefix { $0 == " " }.count
            let room = rest.prefix(width - 2).dropFirst(start)
            let third = room.index(room.startIndex, offsetBy: room.count / 3)
            let beforeOption = room[third...].indices.last {
                room[$0] == " " && rest[rest.index(after: $0)...].hasPrefix("-")
            }
            guard let space = beforeOption ?? room.lastIndex(of: " ") else { break }
            pieces.append(String(rest[..<space]) + " \\")
            rest = Substring(indent + rest[rest.index(after: space)...])
        }
        return pieces + [String(rest)]
    }
}
