/// Which requested permissions a grant lacks.
extension ScopeSet {
    /// Whether this scope, taken as a grant, allows everything `permission` would allow.
    ///
    /// A resource permission is covered when every combination of its values is allowed: a requested
    /// `repo:app.bsky.feed.post?action=create` is covered by a granted `repo:*` or `transition:generic`, and a
    /// requested `blob:image/*` by `blob:*/*` but not by `blob:image/png`. Static scopes, `include` references and
    /// `space` permissions are covered only by the same token, since their meaning is not computed here.
    public func covers(_ permission: Permission) -> Bool {
        switch permission.value {
        case .repo(let repo):
            repo.collections.allSatisfy { collection in repo.actions.allSatisfy { coversRepo(collection, $0) } }
        case .rpc(let rpc): rpc.methods.allSatisfy { coversRPC($0, rpc.audience) }
        case .blob(let blob): blob.accept.allSatisfy(coversBlob)
        case .account(let account): allowsAccount(attr: account.attribute, action: account.action)
        case .identity(let identity): allowsIdentity(attr: identity.attribute)
        case .atproto, .transitionGeneric, .transitionEmail, .transitionChatBsky, .include, .space: contains(permission)
        }
    }

    /// The tokens of `requested` that this scope, taken as a grant, does not cover, in their requested order.
    ///
    /// Permissions are checked with ``covers(_:)``; an unrecognized requested token counts as covered only when the
    /// grant holds the same text. An `include:` reference is never reported: the authorization server replaces it
    /// with the permissions of the set (atproto.com/specs/permission, Permission Sets), which cannot be compared
    /// with the reference here. An empty result means the grant gives at least what was asked.
    public func missing(from requested: ScopeSet) -> ScopeSet {
        ScopeSet(
            tokens: requested.tokens.filter { token in
                switch token {
                case .permission(let permission) where permission.include != nil: false
                case .permission(let permission): !covers(permission)
                case .unrecognized(let text): !unrecognized.contains(text)
                }
            }
        )
    }
}
