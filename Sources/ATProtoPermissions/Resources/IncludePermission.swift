public import ATProtoSyntax

/// A reference to a permission set published as a Lexicon schema, such as
/// `include:app.example.authFull?aud=did:web:api.example.com%23svc_chat` (atproto.com/specs/permission,
/// Permission Sets).
///
/// The authorization server resolves the set and grants what it contains; locally an include grants nothing, so a
/// scope set holding one is not fully understood.
public struct IncludePermission: Sendable, Hashable, CustomStringConvertible {
    /// The NSID of the permission set.
    public let nsid: NSID
    /// The audience passed down to the set's `rpc` permissions that inherit it, when given.
    public let audience: ServiceReference?

    /// Creates a reference to the permission set `nsid`.
    public init(nsid: NSID, audience: ServiceReference? = nil) {
        self.nsid = nsid
        self.audience = audience
    }

    /// Reads `nsid` (positional, required) and `aud` (single, optional).
    init(_ syntax: ScopeTokenSyntax) throws(PermissionError) {
        let reader = try ParameterReader(syntax, positional: "nsid", names: ["nsid", "aud"])
        let nsid = try reader.single("nsid", required: true, expected: "an NSID") { try? NSID(validating: $0) }
        let audience = try reader.single("aud", required: false, expected: ServiceReference.expected) {
            ServiceReference(rawValue: $0)
        }
        guard let nsid else { throw .missingParameter(syntax.token, "include", "nsid") }
        self.init(nsid: nsid, audience: audience)
    }

    /// The canonical scope string, such as `include:app.example.authFull`.
    public var description: String {
        var string = CanonicalScopeString("include")
        string.addPositional("nsid", [nsid.rawValue])
        if let audience { string.add("aud", [audience.rawValue]) }
        return string.string
    }
}
