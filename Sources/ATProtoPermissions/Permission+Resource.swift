extension Permission {
    /// The resource a permission is about: the part of the token before `:` or `?`
    /// (atproto.com/specs/permission, Resource Types).
    ///
    /// An open set: the spec expects new resources over time.
    public struct Resource: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The name, such as `repo`.
        public let rawValue: String

        /// Creates a resource from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `atproto`, the scope every AT Protocol session requests.
        public static let atproto = Resource(rawValue: "atproto")
        /// `transition:…`, the transitional scopes.
        public static let transition = Resource(rawValue: "transition")
        /// `repo`, records in the public repository.
        public static let repo = Resource(rawValue: "repo")
        /// `rpc`, calls to remote services.
        public static let rpc = Resource(rawValue: "rpc")
        /// `blob`, uploaded media files.
        public static let blob = Resource(rawValue: "blob")
        /// `account`, hosting details such as the email address.
        public static let account = Resource(rawValue: "account")
        /// `identity`, the DID document and handle.
        public static let identity = Resource(rawValue: "identity")
        /// `include`, a reference to a permission set.
        public static let include = Resource(rawValue: "include")
        /// `space`, the proposed permissioned-data spaces.
        public static let space = Resource(rawValue: "space")

        /// The name.
        public var description: String { rawValue }
    }
}
