import ATProtoPermissions
import ATProtoSyntax

/// What the authorization server grants for a requested scope: the requested permissions, each `include:`
/// replaced by the permissions of its set, minus the permissions the sandbox is told to withhold.
///
/// The token response names the expansion instead of the reference, as the reference server does
/// (atproto.com/specs/permission, Permission Sets). `space:` permissions pass through and grant nothing.
enum PermissionGrant {
    /// The NSIDs of the permission sets `requested` includes that the sandbox lacks, in requested order.
    static func unknownSets(in requested: ScopeSet, settings: SandboxConfiguration) -> [String] {
        requested.permissions.compactMap(\.include).map(\.nsid.rawValue).filter { settings.permissionSet($0) == nil }
    }

    /// The first permission of `requested` the `refusedScopes` fault refuses, compared in canonical form.
    static func refused(in requested: ScopeSet, settings: SandboxConfiguration) -> Permission? {
        let refused = ScopeSet(granted: settings.faults.refusedScopes.joined(separator: " "))
        return requested.permissions.first { refused.contains($0) }
    }

    /// The granted scope: `requested` with its includes expanded from ``SandboxConfiguration/permissionSets``,
    /// without the ``SandboxConfiguration/withheldPermissions`` (compared in canonical form); an include of an
    /// unknown set contributes nothing.
    static func granted(_ requested: ScopeSet, settings: SandboxConfiguration) -> ScopeSet {
        let declined = ScopeSet(granted: settings.withheldPermissions.joined(separator: " "))
        let expanded = requested.permissions.flatMap { permission -> [Permission] in
            guard let include = permission.include else { return [permission] }
            guard let set = settings.permissionSet(include.nsid.rawValue) else { return [] }
            return expansion(of: include, set)
        }
        return ScopeSet(expanded.filter { !declined.contains($0) })
    }

    /// The canonical granted scope for a canonical requested scope, with the current settings.
    static func granted(_ requested: String, settings: SandboxConfiguration) -> String {
        granted(ScopeSet(granted: requested), settings: settings).description
    }

    /// The `repo`, `rpc` and `blob` permissions an include of `set` stands for.
    ///
    /// A collection or method outside the set's namespace, or a wildcard, voids its permission. An `rpc`
    /// permission takes the include's `aud` when it inherits it; with a DID audience of its own, or with no audience
    /// to inherit, it is void (`@atproto/oauth-scopes`, `IncludeScope`).
    static func expansion(of include: IncludePermission, _ set: SandboxPermissionSet) -> [Permission] {
        let nsid = include.nsid.rawValue
        guard let lastDot = nsid.lastIndex(of: ".") else { return [] }
        let group = String(nsid[...lastDot])
        return set.permissions.compactMap { permission($0, group: group, audience: include.audience) }
    }

    private static func permission(
        _ entry: SandboxPermissionSet.Entry,
        group: String,
        audience: ServiceReference?
    ) -> Permission? {
        switch entry.resource {
        case "repo":
            let actions = entry.actions.compactMap(RepoPermission.Action.init(rawValue:))
            guard let collections = patterns(entry.collections, under: group), actions.count == entry.actions.count
            else { return nil }
            let allowed = actions.isEmpty ? Set(RepoPermission.Action.allCases) : Set(actions)
            return (try? RepoPermission(collections: collections, actions: allowed)).map(Permission.init)
        case "rpc":
            guard let methods = patterns(entry.methods, under: group) else { return nil }
            let resolved: RPCAudience
            switch (entry.audience, audience) {
            case ("*", _): resolved = .any
            case (nil, let inherited?) where entry.inheritsAudience: resolved = .service(inherited)
            default: return nil
            }
            return (try? RPCPermission(methods: methods, audience: resolved)).map(Permission.init)
        case "blob":
            let accept = entry.accept.compactMap(MediaTypePattern.init(rawValue:))
            guard accept.count == entry.accept.count else { return nil }
            return (try? BlobPermission(accept: accept)).map(Permission.init)
        default:
            return nil
        }
    }

    /// The names as NSID patterns when each is an NSID under `group`; `nil` when one is not, or there are none.
    private static func patterns(_ names: [String], under group: String) -> [NSIDPattern]? {
        let patterns = names.compactMap { name in
            name.hasPrefix(group) && name.count > group.count ? NSIDPattern(name) : nil
        }
        return !patterns.isEmpty && patterns.count == names.count ? patterns : nil
    }
}
