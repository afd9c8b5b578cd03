public import Failures

/// Text that is not a valid AT Protocol identifier: a handle, a DID, an NSID or an at-identifier
/// (atproto.com/specs/handle, /did, /nsid, /lexicon).
///
/// The ``reason`` quotes the offending text made safe to print.
public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of identifier was expected.
    public struct Expected: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name, such as `handle`.
        public var rawValue: String

        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A handle.
        public static let handle = Expected(rawValue: "handle")
        /// A DID.
        public static let did = Expected(rawValue: "DID")
        /// An NSID.
        public static let nsid = Expected(rawValue: "NSID")
        /// A handle or a DID.
        public static let atIdentifier = Expected(rawValue: "handle or DID")

        /// The name.
        public var description: String { rawValue }
    }

    /// What kind of identifier was expected.
    public let expected: Expected
    /// Why the text is not one, in words.
    public let reason: String

    /// Creates an error; `text` is quoted in the reason, made printable and shortened.
    init(_ expected: Expected, _ text: String, _ problem: String) {
        self.expected = expected
        self.reason = "“\(QuotedText.printable(text, limit: 100))”: \(problem)"
    }

    /// Creates an error with a reason that quotes nothing.
    init(_ expected: Expected, reason: String) {
        self.expected = expected
        self.reason = reason
    }

    /// An identifier that is valid but cannot be used for what was asked, such as a DID that forms no URL.
    public static func unusable(_ expected: Expected, _ text: String, _ problem: String) -> SyntaxError {
        SyntaxError(expected, text, problem)
    }

    /// `Invalid <kind>: <reason>.` and what to do.
    public var description: String {
        switch expected {
        case .handle: "Invalid handle \(reason). Check the spelling of the handle."
        case .did: "Invalid DID \(reason). Check the DID, or sign in with the handle instead."
        case .nsid: "Invalid NSID \(reason). An NSID looks like com.atproto.server.getSession."
        default: "Not a valid \(expected): \(reason). Give a handle (alice.example.com) or a DID."
        }
    }

}

extension SyntaxError: CategorizedError {
    /// A malformed handle, DID, NSID or at-identifier is input that cannot be used.
    public var category: FailureCategory { .usage }

    /// The caller's input: the identifier as given.
    public var origin: FailureOrigin { .input }
}
