/// What a failure means for whoever meets it, whichever layer it came from: every public error of atoauth has one.
///
/// A front end maps the category to its own signal (the command-line tool to its exit status) and never needs to
/// know the error's type.
public enum FailureCategory: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The input cannot be used: a malformed handle, permission, URL or option.
    case usage
    /// No usable session: sign in (again), or choose another account.
    case signInNeeded
    /// A check that protects the user failed: identity, metadata, issuer, `state`, `iss`, `sub`, DPoP or an unsafe
    /// address. Nothing was stored.
    case securityCheckFailed
    /// The network, a server or the local store failed; trying again may work.
    case failed
    /// The operation was cancelled; nothing half-done was kept.
    case cancelled

    /// The category's name, such as `signInNeeded`.
    public var description: String { rawValue }
}
