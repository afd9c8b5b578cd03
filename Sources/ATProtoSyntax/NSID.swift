/// A namespaced identifier such as `com.atproto.identity.resolveHandle` (atproto.com/specs/nsid).
public struct NSID: CheckedIdentifier {
    /// ``SyntaxError/Expected/nsid``.
    public static let expected = SyntaxError.Expected.nsid

    /// The longest NSID accepted, in characters: a 253-character authority, a period and a 63-character name.
    public static let maximumLength = 317

    /// The NSID as given; NSIDs are case-sensitive in the name.
    public let rawValue: String

    /// Checks the NSID syntax; throws ``SyntaxError`` when it does not hold.
    public init(validating text: String) throws {
        self.rawValue = try Self.checked(text, Self.syntaxProblem(text))
    }

    /// Whether the text is a syntactically valid NSID.
    public static func isValid(_ text: String) -> Bool { syntaxProblem(text) == nil }

    /// The domain authority in its usual order, such as `atproto.com` for `com.atproto.identity.resolveHandle`.
    public var authority: String {
        rawValue.split(separator: ".").dropLast().reversed().joined(separator: ".")
    }

    /// The name: the last segment, such as `resolveHandle`.
    public var name: String { rawValue.split(separator: ".").last.map(String.init) ?? "" }

    /// Why `text` is not an NSID, or `nil`: at least three segments, the authority's segments as domain labels
    /// with the first starting with a letter, and a name of letters and digits starting with a letter.
    static func syntaxProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumLength else { return "it is longer than \(maximumLength) characters" }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count >= 3 else { return "it needs at least three segments" }
        for segment in segments.dropLast() {
            if let problem = DomainSyntax.labelProblem(segment) { return problem }
        }
        guard let first = segments.first?.first, DomainSyntax.isLetter(first) else {
            return "the first segment must start with a letter"
        }
        guard let name = segments.last, let start = name.first, DomainSyntax.isLetter(start),
            name.count <= DomainSyntax.maximumLabelLength, name.allSatisfy(DomainSyntax.isLetterOrDigit)
        else {
            return "the name must be letters and digits, starting with a letter"
        }
        return nil
    }
}
