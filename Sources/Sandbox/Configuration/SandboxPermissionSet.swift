/// A permission set the sandbox publishes as a Lexicon schema of type `permission-set`, which `include:` scopes
/// name (atproto.com/specs/permission, Permission Sets; atproto.com/specs/lexicon).
///
/// The PDS serves it from `com.atproto.lexicon.resolveLexicon` and the authorization server expands
/// `include:<nsid>` from it. Only permissions under the set's namespace count: each collection and method must start
/// with the set NSID's group, everything up to its last dot (`app.bsky.` for `app.bsky.authCreatePosts`).
public struct SandboxPermissionSet: Sendable, Hashable {
    /// One `permission` object of the set: a resource and its parameters, as in a scope token.
    public struct Entry: Sendable, Hashable {
        /// The resource: `repo`, `rpc` or `blob` are expanded; any other is published but grants nothing.
        public var resource: String
        /// The `repo` collections.
        public var collections: [String]
        /// The `repo` actions; empty means all of them.
        public var actions: [String]
        /// The `rpc` methods (`lxm`).
        public var methods: [String]
        /// An explicit `rpc` audience; a set may only use `*`, a DID audience makes the permission void.
        public var audience: String?
        /// Whether an `rpc` permission takes the audience of the `include:…?aud=` scope that names the set.
        public var inheritsAudience: Bool
        /// The `blob` MIME types.
        public var accept: [String]

        /// Creates a permission object from its resource and parameters.
        public init(
            resource: String,
            collections: [String] = [],
            actions: [String] = [],
            methods: [String] = [],
            audience: String? = nil,
            inheritsAudience: Bool = false,
            accept: [String] = []
        ) {
            self.resource = resource
            self.collections = collections
            self.actions = actions
            self.methods = methods
            self.audience = audience
            self.inheritsAudience = inheritsAudience
            self.accept = accept
        }

        /// A `repo` permission for `collections` and `actions` (all when empty).
        public static func repo(_ collections: [String], actions: [String] = []) -> Entry {
            Entry(resource: "repo", collections: collections, actions: actions)
        }

        /// An `rpc` permission for `methods`, with the include's audience when `inheritsAudience`.
        public static func rpc(_ methods: [String], audience: String? = nil, inheritsAudience: Bool = false) -> Entry {
            Entry(resource: "rpc", methods: methods, audience: audience, inheritsAudience: inheritsAudience)
        }

        /// A `blob` permission for the MIME types `accept`.
        public static func blob(_ accept: [String]) -> Entry { Entry(resource: "blob", accept: accept) }
    }

    /// The NSID, such as `app.bsky.authCreatePosts`.
    public var nsid: String
    /// The DID of the account that publishes the schema, named in its `at://` URI.
    public var publisher: String
    /// A short title for the consent screen.
    public var title: String
    /// A longer description for the consent screen.
    public var detail: String
    /// The permissions.
    public var permissions: [Entry]

    /// Creates a permission set.
    public init(nsid: String, publisher: String, title: String, detail: String, permissions: [Entry]) {
        self.nsid = nsid
        self.publisher = publisher
        self.title = title
        self.detail = detail
        self.permissions = permissions
    }

    /// The example set `app.bsky.authCreatePosts`: creating posts and reading profiles from the audience the
    /// `include:` scope names.
    ///
    /// The publisher is a placeholder DID: the sandbox resolves schemas from its own store, not from the network.
    public static let createPosts = SandboxPermissionSet(
        nsid: "app.bsky.authCreatePosts",
        publisher: "did:web:lexicons.sandbox.test",
        title: "Create posts",
        detail: "Publish new posts and read the profiles of other accounts.",
        permissions: [
            .repo(["app.bsky.feed.post"], actions: ["create"]),
            .rpc(["app.bsky.actor.getProfile"], inheritsAudience: true),
        ]
    )

    /// The sets a new configuration has: ``createPosts``.
    public static let defaults = [createPosts]
}
