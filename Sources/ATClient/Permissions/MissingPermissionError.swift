public import ATProtoPermissions
public import Failures

/// A call the account's session is not allowed to make: refused before sending, or answered
/// `403 ScopeMissingError` by the PDS (atproto.com/specs/permission).
public struct MissingPermissionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The NSID of the method.
    public let method: String
    /// The missing permission, canonical; `nil` when the PDS did not say which.
    public let permission: Permission?
    /// The account, by handle when it has one.
    public let account: String
    /// The scope the session was granted.
    public let grantedScope: String
    /// Whether the client refused the call without sending it.
    public let refusedLocally: Bool

    /// The scope to ask for to be allowed the call: the granted permissions plus the missing one, in canonical form.
    ///
    /// Tokens of the grant that do not parse are left out: the server chose them, and they grant nothing here.
    public var scopeToRequest: String? {
        permission.map { ScopeSet(ScopeSet(granted: grantedScope).permissions + [$0]).description }
    }

    /// `<method> needs the permission <p>, which the session of <account> was not granted; …`.
    public var description: String {
        let needed = permission.map { "the permission \($0)" } ?? "a permission"
        let outcome =
            refusedLocally ? "nothing was sent" : "the PDS refused it with ScopeMissingError"
        return "\(method) needs \(needed), which the session of \(account) was not granted; \(outcome)."
    }
}

extension MissingPermissionError: CategorizedError {
    /// The session lacks a permission: only a new sign-in that asks for it helps.
    public var category: FailureCategory { .signInNeeded }

    /// The account, whose session was not granted the permission.
    public var origin: FailureOrigin { .account }

    /// Sign the account in again with the scope that adds the permission.
    public var remedy: Remedy { .signInWithPermission(account: account, scope: scopeToRequest) }
}
