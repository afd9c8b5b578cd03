package import ATProtoPermissions

/// What an XRPC call needs of an OAuth grant, as a PDS judges it (atproto.com/specs/permission).
package struct CallNeeds: Sendable {
    /// The permissions the PDS checks: a record write's `repo`, an upload's `blob`, the `rpc` permission of a call
    /// to a named service, a permission over the account or its identity.
    package var permissions: [Permission]
    /// For a call the PDS forwards to a service of its own choice (no `atproto-proxy`, no default known here),
    /// `rpc:<nsid>?aud=*`: the one permission sure to cover whichever service that is.
    package var anyService: Permission?
    /// Whether a PDS refuses the call to every OAuth grant (account management, app passwords, invite codes).
    package var lentToNoGrant: Bool
    /// Whether every permission the PDS checks could be written here; `false` when one could not (nothing of the
    /// call should then be taken as needing nothing).
    package var isJudgeable = true

    /// Creates the needs of a call.
    package init(permissions: [Permission] = [], anyService: Permission? = nil, lentToNoGrant: Bool = false) {
        self.permissions = permissions
        self.anyService = anyService
        self.lentToNoGrant = lentToNoGrant
    }

    /// Adds the permission `text` names; one that does not parse makes the call unjudgeable.
    mutating func require(_ text: String) { require(try? Permission(parsing: text)) }

    /// Adds `permission`; `nil`, a permission that could not be made, makes the call unjudgeable.
    mutating func require(_ permission: Permission?) {
        if let permission { permissions.append(permission) } else { isJudgeable = false }
    }

    /// What a grant judged without knowing the PDS's choices must hold: ``permissions`` and ``anyService``.
    package var wherever: [Permission] { permissions + (anyService.map { [$0] } ?? []) }
}
