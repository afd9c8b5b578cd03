extension Permission {
    /// Parses one scope token strictly; throws ``PermissionError`` naming the token and what is wrong.
    ///
    /// Resource and parameter names are case-sensitive, unknown parameters are refused, values are percent-decoded,
    /// and the positional and named forms are equivalent (`repo:x` is `repo?collection=x`)
    /// (atproto.com/specs/permission, Scope String Syntax). The static scopes must be written exactly.
    public init(parsing token: String) throws(PermissionError) {
        if let value = Self.staticScopes[token] {
            self.init(value: value)
            return
        }
        let syntax = try ScopeTokenSyntax(parsing: token)
        switch Resource(rawValue: syntax.resource) {
        case .repo: self.init(value: .repo(try RepoPermission(syntax)))
        case .rpc: self.init(value: .rpc(try RPCPermission(syntax)))
        case .blob: self.init(value: .blob(try BlobPermission(syntax)))
        case .account: self.init(value: .account(try AccountPermission(syntax)))
        case .identity: self.init(value: .identity(try IdentityPermission(syntax)))
        case .include: self.init(value: .include(try IncludePermission(syntax)))
        case .space: self.init(value: .space(try SpacePermission(syntax)))
        case .atproto, .transition:
            throw .malformed(token, "“\(syntax.resource)” scopes are written exactly, without other parts")
        default: throw .unknownResource(token, syntax.resource)
        }
    }

    /// The static scopes by their exact text.
    private static let staticScopes: [String: Value] = [
        "atproto": .atproto,
        "transition:generic": .transitionGeneric,
        "transition:email": .transitionEmail,
        "transition:chat.bsky": .transitionChatBsky,
    ]

    /// The `repo` permission, when this is one.
    public var repo: RepoPermission? { if case .repo(let permission) = value { permission } else { nil } }
    /// The `rpc` permission, when this is one.
    public var rpc: RPCPermission? { if case .rpc(let permission) = value { permission } else { nil } }
    /// The `blob` permission, when this is one.
    public var blob: BlobPermission? { if case .blob(let permission) = value { permission } else { nil } }
    /// The `account` permission, when this is one.
    public var account: AccountPermission? { if case .account(let permission) = value { permission } else { nil } }
    /// The `identity` permission, when this is one.
    public var identity: IdentityPermission? {
        if case .identity(let permission) = value { permission } else { nil }
    }
    /// The `include` permission-set reference, when this is one.
    public var include: IncludePermission? { if case .include(let permission) = value { permission } else { nil } }
    /// The proposed `space` permission, when this is one.
    public var space: SpacePermission? { if case .space(let permission) = value { permission } else { nil } }
}
