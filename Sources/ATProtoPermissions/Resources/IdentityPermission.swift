/// Control over the account's network identity: its handle, or its whole DID document
/// (atproto.com/specs/permission, Identity).
public struct IdentityPermission: Sendable, Hashable, CustomStringConvertible {
    /// An aspect of the identity.
    ///
    /// An open set: the spec expects more attributes, but only the known ones parse.
    public struct Attribute: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name, such as `handle`.
        public let rawValue: String

        /// Creates an attribute from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Updating the handle, in the DID document and on domains the PDS controls.
        public static let handle = Attribute(rawValue: "handle")
        /// `*`: full control over the DID document and handle.
        public static let all = Attribute(rawValue: "*")

        /// The attributes this module parses.
        public static let known: [Attribute] = [.handle, .all]

        /// The name.
        public var description: String { rawValue }
    }

    /// The attribute controlled; ``Attribute/all`` includes every other.
    public let attribute: Attribute

    /// Creates a permission; throws when `attribute` is not one of ``Attribute/known``.
    public init(attribute: Attribute) throws(PermissionError) {
        guard Attribute.known.contains(attribute) else {
            throw .invalidValue("identity", "attr", attribute.rawValue, expected: "handle or “*”")
        }
        self.attribute = attribute
    }

    /// Reads `attr` (positional, required); no other parameter exists.
    init(_ syntax: ScopeTokenSyntax) throws(PermissionError) {
        let reader = try ParameterReader(syntax, positional: "attr", names: ["attr"])
        let attribute = try reader.single("attr", required: true, expected: "handle or “*”") { text in
            Attribute.known.first { $0.rawValue == text }
        }
        guard let attribute else { throw .missingParameter(syntax.token, "identity", "attr") }
        self.attribute = attribute
    }

    /// Whether the permission includes `attribute`.
    func covers(_ attribute: Attribute) -> Bool { self.attribute == .all || self.attribute == attribute }

    /// The canonical scope string, such as `identity:handle`.
    public var description: String {
        var string = CanonicalScopeString("identity")
        string.addPositional("attr", [attribute.rawValue])
        return string.string
    }
}
