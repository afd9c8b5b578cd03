/// Joins the parts of an error message so that each sentence ends once: "… is the address right?" stays as it is,
/// "… try again later" gains its period, and nothing ends in "?." or "..".
public enum Sentence {
    /// `text` with a full stop added unless it already ends a sentence (`.`, `?`, `!` or `…`).
    public static func ended(_ text: String) -> String {
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
        let trimmed = text[..<end]
        guard let last = trimmed.last else { return "" }
        return ".?!…".contains(last) ? String(trimmed) : trimmed + "."
    }
}

extension Sentence {
    /// A whole sentence made into a clause that follows a colon: its first letter in lower case ("Nothing accepted
    /// …" becomes "nothing accepted …"), unless the first word is an acronym or a name such as "TLS" or "DNS".
    public static func clause(_ text: String) -> String {
        let firstWord = text.prefix { !$0.isWhitespace }
        guard let first = firstWord.first, first.isUppercase,
            firstWord.dropFirst().allSatisfy({ !$0.isUppercase })
        else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
