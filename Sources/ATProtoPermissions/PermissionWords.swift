/// What a permission allows, in words, for people reading a consent page or a session's status
/// (atproto.com/specs/permission).
///
/// One short phrase per token: `repo:app.bsky.feed.post?action=create` reads "create records of
/// app.bsky.feed.post". The phrase never replaces the token: show the token beside it, since the token is what is
/// granted.
public enum PermissionWords {
    /// The scopes of legacy app-password session JWTs, which are not permission scopes: the PDS decides by them.
    static let legacyScopes = [
        "com.atproto.appPass": "an app password: everything but account settings and direct messages (legacy)",
        "com.atproto.appPassPrivileged": "a privileged app password: everything but account settings (legacy)",
        "com.atproto.access": "the account's main password: everything (legacy)",
    ]

    /// The phrase for one token of a scope value; a token this module cannot read says it grants nothing here.
    public static func text(_ token: ScopeSet.Token) -> String {
        switch token {
        case .permission(let permission):
            text(permission)
        case .unrecognized(let written):
            legacyScopes[written] ?? "not known to this version; grants nothing here"
        }
    }

    /// The phrase for one permission.
    public static func text(_ permission: Permission) -> String {
        switch permission.value {
        case .atproto:
            "use AT Protocol OAuth (required)"
        case .transitionGeneric:
            "broad access: every record, blob and service call but chat"
        case .transitionEmail:
            "read the account's email address"
        case .transitionChatBsky:
            "Bluesky chat"
        case .repo(let repo):
            "\(list(repo.actions.map(\.rawValue))) records of \(list(repo.collections.map(pattern)))"
        case .rpc(let rpc):
            "call \(list(rpc.methods.map(pattern))) at "
                + (rpc.audience.description == "*" ? "any service" : rpc.audience.description)
        case .blob(let blob):
            "upload \(list(blob.accept.map(\.description))) files"
        case .account(let account):
            "\(account.action.rawValue) the account's \(account.attribute)"
        case .identity(let identity):
            identity.attribute == .all ? "change the handle and DID document" : "change the handle"
        case .include(let include):
            "the permission set \(include.nsid)"
        case .space:
            "a proposed permission; grants nothing here"
        }
    }

    private static func pattern(_ pattern: NSIDPattern) -> String {
        pattern.description == "*" ? "any kind" : pattern.description
    }

    private static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
        }
    }
}
