/// Text from a request or a server made fit to quote in an error message: without control or format characters
/// (bidi controls among them) or the line and paragraph separators, which some terminals and JavaScript take as line
/// breaks, and cut at `limit` characters with “…”.
package enum QuotedText {
    package static func printable(_ text: String, limit: Int) -> String {
        let scalars = text.unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: false
            default: true
            }
        }
        let cleaned = String(String.UnicodeScalarView(scalars))
        return cleaned.count <= limit ? cleaned : String(cleaned.prefix(limit)) + "…"
    }
}
