import Foundation

/// Words put into a command line printed for people to paste into a shell.
enum ShellWords {
    /// `word` as one shell word: as it is when it holds only ASCII letters, digits and the `unquoted` punctuation,
    /// which no POSIX shell treats specially, else in single quotes, inside which nothing is special (a `'` in it is
    /// written `'\''`).
    static func quoted(_ word: String, unquoted: String = "@%+=:,./_-") -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || unquoted.unicodeScalars.contains(scalar))
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
