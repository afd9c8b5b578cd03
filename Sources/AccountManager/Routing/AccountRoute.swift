/// How a request chooses the account it goes out as.
///
/// An explicit account wins; otherwise the DID or handle named by the request's `repo` (a query parameter or a
/// member of the JSON body), when that account is signed in here; otherwise the active account.
public struct AccountRoute: Sendable, Hashable {
    /// The handle or DID the caller chose, if any.
    public var explicit: String?
    /// The `repo` the request names, if any.
    public var repo: String?

    /// Creates a route.
    public init(explicit: String? = nil, repo: String? = nil) {
        self.explicit = explicit
        self.repo = repo
    }

    /// The active account.
    public static let active = AccountRoute()
}
