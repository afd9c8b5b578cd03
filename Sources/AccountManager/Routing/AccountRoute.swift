public import ATProtoSyntax

/// How a request chooses the account it goes out as.
///
/// An explicit account wins; otherwise the DID or handle named by the request's `repo` (a query parameter or a
/// member of the JSON body), when that account is signed in here; otherwise the fallback account, when given (a
/// service's default, such as `atoauth gateway --account`); otherwise the active account.
public struct AccountRoute: Sendable, Hashable {
    /// The handle or DID the caller chose, if any.
    public var explicit: ATIdentifier?
    /// The `repo` the request names, if any, as the request has it; text that is no handle or DID names no account.
    public var repo: String?
    /// The account to use when neither of the others chooses one, in place of the active account.
    public var fallback: ATIdentifier?

    /// Creates a route.
    public init(explicit: ATIdentifier? = nil, repo: String? = nil, fallback: ATIdentifier? = nil) {
        self.explicit = explicit
        self.repo = repo
        self.fallback = fallback
    }

    /// The active account.
    public static let active = AccountRoute()
}
