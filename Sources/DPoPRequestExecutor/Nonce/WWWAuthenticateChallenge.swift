import HTTPTransport

/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1), such as `DPoP error="use_dpop_nonce"`.
public struct WWWAuthenticateChallenge: Sendable, Hashable {
    /// The authentication scheme, as sent.
    public var scheme: String
    /// The auth-params, names lowercased, quoted values unescaped.
    public var parameters: [String: String]
    /// The token68 form, when the challenge carries one instead of parameters.
    public var token68: String?

    /// Creates a challenge.
    public init(scheme: String, parameters: [String: String] = [:], token68: String? = nil) {
        self.scheme = scheme
        self.parameters = parameters
        self.token68 = token68
    }

    /// Whether the scheme matches, case-insensitively.
    public func hasScheme(_ name: String) -> Bool { scheme.caseInsensitiveEquals(name) }

    /// Parses every challenge of one or more header values; malformed input yields what could be parsed.
    public static func parse(_ values: [String]) -> [WWWAuthenticateChallenge] {
        values.flatMap { value in
            var parser = WWWAuthenticateParser(Array(value.utf8))
            return parser.parseChallenges()
        }
    }
}
