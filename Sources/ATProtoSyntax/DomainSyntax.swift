/// The label rules that handles, NSID authorities and `did:web` hosts share (atproto.com/specs/handle).
enum DomainSyntax {
    /// The longest domain name, in characters (RFC 1035 §2.3.4).
    static let maximumLength = 253
    /// The longest label, in characters (RFC 1035 §2.3.4).
    static let maximumLabelLength = 63

    /// Why `text` is not a syntactically valid handle, or `nil` when it is.
    ///
    /// Checks ASCII letters, digits, hyphens and periods only; at most 253 characters; at least two labels of 1–63
    /// characters that neither start nor end with a hyphen; a last label (the TLD) that starts with a letter.
    static func handleProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return "it is empty" }
        guard bytes.count <= maximumLength else { return "it is longer than \(maximumLength) characters" }
        guard bytes.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
            return "only ASCII letters, digits, hyphens and periods are allowed"
        }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return "it needs at least two parts separated by periods" }
        for label in labels {
            if let problem = labelProblem(label) { return problem }
        }
        guard let tld = labels.last, let first = tld.first, isLetter(first) else {
            return "the last part must start with a letter"
        }
        return nil
    }

    /// Why one label is invalid, or `nil`: 1–63 letters, digits and hyphens, no hyphen at either end.
    static func labelProblem(_ label: ArraySlice<UInt8>) -> String? {
        guard !label.isEmpty else { return "a part between periods is empty" }
        guard label.count <= maximumLabelLength else {
            return "a part is longer than \(maximumLabelLength) characters"
        }
        guard label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else {
            return "a part starts or ends with a hyphen"
        }
        guard label.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }) else {
            return "a part has a character other than a letter, digit or hyphen"
        }
        return nil
    }

    /// Whether the byte is an ASCII letter.
    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// Whether the byte is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Whether the byte is an ASCII letter or digit.
    static func isLetterOrDigit(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }

    /// The text with ASCII capitals lowercased and everything else unchanged.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
