import ATProtoPermissions

/// One line in words for a granted permission, for `accounts status` (atproto.com/specs/permission).
enum PermissionSummary {
    /// The scopes of legacy app-password session JWTs, which are not permission scopes: the PDS decides by them.
    static let legacyScopes = [
        "com.atproto.appPass": "an app password: everything but account settings and direct messages (legacy)",
        "com.atproto.appPassPrivileged": "a privileged app password: everything but account settings (legacy)",
        "com.atproto.access": "the account's main password: everything (legacy)",
    ]

    static func text(_ token: ScopeSet.Token) -> String {
        guard case .permission(let permission) = token else {
            if case .unrecognized(let text) = token, let legacy = legacyScopes[text] { return legacy }
            return "not known to this version; grants nothing here"
        }
        if permission == .atproto { return "use AT Protocol OAuth (required)" }
        if permission == .transitionGeneric { return "broad access: every record, blob and service call but chat" }
        if permission == .transitionEmail { return "read the account's email address" }
        if permission == .transitionChatBsky { return "Bluesky chat" }
        if let repo = permission.repo {
            return "\(list(repo.actions.map(\.rawValue))) records of \(list(repo.collections.map(pattern)))"
        }
        if let rpc = permission.rpc {
            let audience = rpc.audience.description == "*" ? "any service" : rpc.audience.description
            return "call \(list(rpc.methods.map(pattern))) at \(audience)"
        }
        if let blob = permission.blob { return "upload \(list(blob.accept.map(\.description))) files" }
        if let account = permission.account { return "\(account.action.rawValue) the account's \(account.attribute)" }
        if let identity = permission.identity {
            return identity.attribute == .all ? "change the handle and DID document" : "change the handle"
        }
        if let include = permission.include { return "the permission set \(include.nsid)" }
        return "a proposed permission; grants nothing here"
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
