/// Control of PDS account hosting details, such as the account email (atproto.com/specs/permission, Account).
///
/// `account:email` reads the email address; `account:email?action=manage` also changes it, since `manage`
/// includes `read`.
public struct AccountPermission: Sendable, Hashable, CustomStringConvertible {
    /// A component of account configuration.
    ///
    /// An open set: the spec expects more attributes, but only the known
    /// ones parse.
    public struct Attribute: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name, such as `email`.
        public let rawValue: String

        /// Creates an attribute from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The account email address and its verification status.
        public static let email = Attribute(rawValue: "email")
        /// The whole public repository as a CAR file (`manage` imports one, for example during migration).
        public static let repo = Attribute(rawValue: "repo")

        /// The attributes this module parses.
        public static let known: [Attribute] = [.email, .repo]

        /// The name.
        public var description: String { rawValue }
    }

    /// The degree of control.
    ///
    /// The spec fixes the set, so this is a closed enumeration.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Seeing the attribute.
        case read
        /// Changing the attribute; includes ``read``.
        case manage
    }

    /// The attribute controlled.
    public let attribute: Attribute
    /// The degree of control; ``Action/read`` unless the scope says otherwise.
    public let action: Action

    /// Creates a permission; throws when `attribute` is not one of ``Attribute/known``.
    public init(attribute: Attribute, action: Action = .read) throws(PermissionError) {
        guard Attribute.known.contains(attribute) else {
            throw .invalidValue("account", "attr", attribute.rawValue, expected: "email or repo")
        }
        self.attribute = attribute
        self.action = action
    }

    /// Reads `attr` (positional, required) and `action` (single, default `read`).
    init(_ syntax: ScopeTokenSyntax) throws(PermissionError) {
        let reader = try ParameterReader(syntax, positional: "attr", names: ["attr", "action"])
        let attribute = try reader.single("attr", required: true, expected: "email or repo") { text in
            Attribute.known.first { $0.rawValue == text }
        }
        let action = try reader.single("action", required: false, expected: "read or manage") { Action(rawValue: $0) }
        guard let attribute else { throw .missingParameter(syntax.token, "account", "attr") }
        try self.init(attribute: attribute, action: action ?? .read)
    }

    /// Whether the permission allows `action` on `attribute`; `manage` includes `read`.
    func covers(_ attribute: Attribute, _ action: Action) -> Bool {
        self.attribute == attribute && (self.action == .manage || self.action == action)
    }

    /// The canonical scope string, such as `account:email` or `account:repo?action=manage`.
    public var description: String {
        var string = CanonicalScopeString("account")
        string.addPositional("attr", [attribute.rawValue])
        if action != .read { string.add("action", [action.rawValue]) }
        return string.string
    }
}
