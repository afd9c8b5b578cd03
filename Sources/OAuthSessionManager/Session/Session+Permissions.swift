public import ATProtoPermissions

extension Session {
    /// The granted scope, parsed leniently: tokens this version does not know are kept and grant nothing
    /// (atproto.com/specs/permission).
    public var permissions: ScopeSet { ScopeSet(granted: scope) }

    /// The requested permissions the server did not grant, in requested order; empty when it granted all of them,
    /// and for sessions stored before the request was kept.
    ///
    /// An `include:` reference is never listed: the server replaces it with the permissions of its set.
    public var missingPermissions: ScopeSet {
        guard let requestedScope else { return ScopeSet([]) }
        return permissions.missing(from: ScopeSet(granted: requestedScope))
    }
}
