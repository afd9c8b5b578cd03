import ArgumentParser
import Foundation

/// The man page `atoauth(1)` that `atoauth --generate-manual` prints, in roff.
///
/// It is made from the same help every command prints, so it never drifts from `--help`; `scripts/install` installs
/// it.
enum ManualPage {
    /// The flag that prints it, beside ArgumentParser's `--generate-completion-script`.
    static let flag = "--generate-manual"

    /// The whole page: the root command's help, then each command's, then the exit statuses.
    static func roff(date: Date = Date()) -> String {
        let root = ATOAuthCommand.configuration
        let day = ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: [.withFullDate])
        var lines = [
            #".TH ATOAUTH 1 "\#(day)" "atoauth \#(root.version)" "User Commands""#,
            ".SH NAME",
            "atoauth \\- " + escaped(root.abstract),
            ".SH SYNOPSIS",
        ]
        lines += verbatim(ATOAuthCommand.usageString(for: ATOAuthCommand.self))
        lines.append(".SH DESCRIPTION")
        lines += verbatim(ATOAuthCommand.helpMessage(for: ATOAuthCommand.self, columns: 78))
        lines.append(".SH COMMANDS")
        for (command, path) in CommandTree.paths where command != ATOAuthCommand.self {
            lines.append(".SS " + escaped(path))
            lines += verbatim(ATOAuthCommand.helpMessage(for: command, columns: 78))
        }
        lines += [
            ".SH EXIT STATUS",
            "0 success, 1 the operation failed, 2 usage error, 3 sign-in needed, 4 a security check failed (nothing was "
                + "stored), 130 interrupted.",
            ".SH SEE ALSO",
            "The full reference, docs/cli.md, and the failures a user meets, docs/errors.md, in the atoauth repository.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` kept as laid out (no filling, no adjusting), each line safe for roff.
    private static func verbatim(_ text: String) -> [String] {
        [".nf"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) } + [".fi"]
    }

    /// A backslash becomes `\e`, a character outside ASCII its `\[uXXXX]` escape (roff reads bytes, not UTF-8), and
    /// a line starting with `.` or `'` (a roff request) starts with `\&` instead.
    private static func escaped(_ line: String) -> String {
        var text = ""
        for scalar in line.unicodeScalars {
            if scalar == "\\" {
                text += "\\e"
            } else if scalar.isASCII {
                text.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
    }
}
