/// A decentralized identifier such as `did:plc:ewvi7nxzyoun6zhxrhs64oiz`, checked against the generic syntax
/// (atproto.com/specs/did).
///
/// The generic syntax admits every method; ``resolutionTarget()`` applies the stricter rule for the DIDs this
/// client resolves (atproto.com/specs/did). DIDs are case-sensitive and never normalized.
public struct DID: CheckedIdentifier {
    /// ``SyntaxError/Expected/did``.
    public static let expected = SyntaxError.Expected.did

    /// The longest DID accepted, in characters (atproto.com/specs/did).
    public static let maximumLength = 2048

    /// The whole DID, such as `did:web:example.com`.
    public let rawValue: String

    /// Checks the generic DID syntax; throws ``SyntaxError`` when it does not hold.
    public init(validating text: String) throws {
        self.rawValue = try Self.checked(text, Self.syntaxProblem(text))
    }

    /// Whether the text is a syntactically valid DID.
    public static func isValid(_ text: String) -> Bool { syntaxProblem(text) == nil }

    /// The method, such as ``Method/plc``.
    public var method: Method {
        let parts = rawValue.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        return Method(rawValue: parts.count == 3 ? String(parts[1]) : "")
    }

    /// The method-specific identifier: everything after the method and its colon.
    public var methodSpecificIdentifier: Substring {
        let parts = rawValue.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count == 3 ? parts[2] : ""
    }

    /// Why `text` is not a DID, or `nil`: `did:`, a lowercase method, `:`, then letters, digits and `._:%-`,
    /// not ending in `:` or `%`, at most 2048 characters.
    static func syntaxProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumLength else { return "it is longer than \(maximumLength) characters" }
        guard bytes.starts(with: Array("did:".utf8)) else { return "it does not start with “did:”" }
        let rest = bytes.dropFirst(4)
        guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else { return "it has no method-specific part" }
        let method = rest[..<colon]
        guard !method.isEmpty, method.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) else {
            return "the method must be lowercase letters"
        }
        let identifier = rest[(colon + 1)...]
        guard let last = identifier.last else { return "the method-specific part is empty" }
        let allowed = Array("._:%-".utf8)
        guard identifier.allSatisfy({ DomainSyntax.isLetterOrDigit($0) || allowed.contains($0) }) else {
            return "only letters, digits and ._:%- are allowed after the method"
        }
        guard last != UInt8(ascii: ":"), last != UInt8(ascii: "%") else {
            return "it must not end with “:” or “%”"
        }
        return nil
    }
}

extension DID {
    /// A DID method, such as `plc` or `web`; an open set.
    public struct Method: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The method name.
        public var rawValue: String

        /// Creates a method from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `did:plc`, resolved through a PLC directory.
        public static let plc = Method(rawValue: "plc")
        /// `did:web`, resolved from the host's `/.well-known/did.json`.
        public static let web = Method(rawValue: "web")

        /// The method name.
        public var description: String { rawValue }
    }
}
