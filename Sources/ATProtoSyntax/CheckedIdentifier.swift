/// An identifier kept as the text it was checked from: made by `init(validating:)`, decoded from a JSON string with
/// the same check, and encoded as that string.
public protocol CheckedIdentifier: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the identifier is called in an error, such as ``SyntaxError/Expected/did``.
    static var expected: SyntaxError.Expected { get }
    /// The identifier's text.
    var rawValue: String { get }
    /// Checks `text`; throws ``SyntaxError`` when it is not such an identifier.
    init(validating text: String) throws
}

extension CheckedIdentifier {
    /// `text` when its syntax check found no `problem`; else the ``SyntaxError`` naming it.
    static func checked(_ text: String, _ problem: String?) throws -> String {
        if let problem { throw SyntaxError(expected, text, problem) }
        return text
    }

    /// The identifier's text.
    public var description: String { rawValue }

    /// Decodes the identifier from a string, checking it as ``init(validating:)`` does.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(validating: text)
        } catch {
            let context = DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "invalid \(Self.expected)"
            )
            throw DecodingError.dataCorrupted(context)
        }
    }

    /// Encodes the identifier as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
