public import ATProtoSyntax

/// What a scope set allows, following `ScopePermissionsTransition` of `@atproto/oauth-scopes`, the rules the
/// reference PDS enforces (atproto.com/specs/permission; atproto.com/specs/oauth, transitional scopes).
///
/// `atproto` alone grants nothing. `transition:generic` allows every `repo` write, every `blob` upload and every
/// `rpc` method outside `chat.bsky.*`, at any audience; `transition:chat.bsky` allows the `chat.bsky.*` methods;
/// `transition:email` allows reading (not managing) the account email. `include` and `space` grant nothing here.
extension ScopeSet {
    /// Whether the scope allows `action` on records of `collection`.
    public func allowsRepo(collection: NSID, action: RepoPermission.Action) -> Bool {
        coversRepo(.nsid(collection), action)
    }

    /// Whether the scope allows calling method `lxm` at service `aud`.
    public func allowsRPC(lxm: NSID, aud: ServiceReference) -> Bool { coversRPC(.nsid(lxm), .service(aud)) }

    /// Whether the scope allows uploading a blob of MIME type `mime`, such as `image/png`.
    ///
    /// Returns `false` when `mime` is not a concrete MIME type. MIME types compare without regard to case.
    public func allowsBlob(mime: String) -> Bool {
        guard let pattern = MediaTypePattern(rawValue: mime), !pattern.isWildcard else { return false }
        return coversBlob(pattern)
    }

    /// Whether the scope allows `action` on the account attribute `attr`; `manage` includes `read`.
    public func allowsAccount(attr: AccountPermission.Attribute, action: AccountPermission.Action) -> Bool {
        if attr == .email, action == .read, contains(.transitionEmail) { return true }
        return permissions.contains { $0.account?.covers(attr, action) == true }
    }

    /// Whether the scope allows control of the identity attribute `attr`; `identity:*` includes every attribute.
    public func allowsIdentity(attr: IdentityPermission.Attribute) -> Bool {
        permissions.contains { $0.identity?.covers(attr) == true }
    }

    func coversRepo(_ collection: NSIDPattern, _ action: RepoPermission.Action) -> Bool {
        contains(.transitionGeneric) || permissions.contains { $0.repo?.covers(collection, action) == true }
    }

    func coversBlob(_ pattern: MediaTypePattern) -> Bool {
        contains(.transitionGeneric) || permissions.contains { $0.blob?.covers(pattern) == true }
    }

    /// Whether calling every method `method` stands for at `audience` is allowed.
    ///
    /// The transitional scopes ignore the audience; `*` is covered by them only when both `transition:generic`
    /// and `transition:chat.bsky` are present.
    func coversRPC(_ method: NSIDPattern, _ audience: RPCAudience) -> Bool {
        let generic = contains(.transitionGeneric)
        let chat = contains(.transitionChatBsky)
        switch method {
        case .any where generic && chat: return true
        case .nsid(let nsid) where nsid.rawValue.hasPrefix("chat.bsky.") ? chat : generic: return true
        default: return permissions.contains { $0.rpc?.covers(method, audience) == true }
        }
    }
}
