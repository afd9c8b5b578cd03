/// A handle: a DNS name that names an account, normalized to lowercase (atproto.com/specs/handle).
///
/// Creating one checks the syntax only. Before resolving a handle, check ``isResolvable``: the spec reserves some
/// top-level domains and the `handle.invalid` marker (atproto.com/specs/handle, Handle Resolution).
public struct Handle: CheckedIdentifier {
    /// ``SyntaxError/Expected/handle``.
    public static let expected = SyntaxError.Expected.handle

    /// The top-level domains a handle must not use when it is resolved (atproto.com/specs/handle).
    ///
    /// `.test` is allowed: development sandboxes use it.
    public static let disallowedTopLevelDomains: Set<String> = [
        "alt", "arpa", "example", "internal", "invalid", "local", "localhost", "onion",
    ]

    /// The marker a server shows for an account whose handle does not verify.
    public static let invalidMarker = "handle.invalid"

    /// The handle in lowercase, such as `alice.example.com`.
    public let rawValue: String

    /// Checks the syntax and lowercases the handle; throws ``SyntaxError`` when it is invalid.
    public init(validating text: String) throws {
        self.rawValue = DomainSyntax.asciiLowercased(try Self.checked(text, DomainSyntax.handleProblem(text)))
    }

    /// Whether the text is a syntactically valid handle.
    public static func isValid(_ text: String) -> Bool { DomainSyntax.handleProblem(text) == nil }

    /// The last label, such as `com`.
    public var topLevelDomain: Substring {
        rawValue.split(separator: ".").last ?? Substring(rawValue)
    }

    /// Whether the handle may be resolved: not a disallowed top-level domain nor `handle.invalid`.
    public var isResolvable: Bool { resolutionProblem == nil }

    /// Throws ``SyntaxError`` unless the handle may be resolved (atproto.com/specs/handle, Handle Resolution).
    public func checkResolvable() throws {
        if let problem = resolutionProblem { throw SyntaxError(.handle, reason: problem) }
    }

    private var resolutionProblem: String? {
        if rawValue == Self.invalidMarker {
            return "“\(Self.invalidMarker)” means the account's handle could not be verified"
        }
        if Self.disallowedTopLevelDomains.contains(String(topLevelDomain)) {
            return "“\(rawValue)” uses the reserved top-level domain .\(topLevelDomain)"
        }
        return nil
    }
}
