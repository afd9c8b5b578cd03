/// Text escaped for HTML element content and quoted attribute values (HTML §13.1.2.6: `&`, `<`, `>`, `"`, `'`).
public enum HTMLText {
    /// The text with the five HTML-significant characters replaced by character references.
    public static func escaped(_ text: some StringProtocol) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
