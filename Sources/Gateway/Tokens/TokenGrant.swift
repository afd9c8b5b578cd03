import ATClient
import ATProtoPermissions
import ATProtoSyntax
import AccountManager

/// What the token a request carries lets it do: the accounts it may act as and the permissions it may use.
struct TokenGrant: Sendable {
    /// The token's name for the audit log and metrics: `startup` for the start-up token.
    var name: String
    /// The accounts it may act as; `nil` for every account the gateway serves.
    var accounts: Set<DID>?
    /// The permissions it is limited to; `nil` when unrestricted.
    var scope: ScopeSet?

    /// The name the start-up token goes by.
    static let startupName = GatewayTokenRecord.startupName

    /// The account a call that names none goes out as: the token's one account, else the gateway's fallback (the
    /// active account when that is `nil`).
    func fallback(otherwise configured: ATIdentifier?) -> ATIdentifier? {
        if let accounts, accounts.count == 1, let only = accounts.first { return .did(only) }
        return configured
    }

    /// Whether the grant limits anything, so that each call must be judged.
    var isLimited: Bool { accounts != nil || scope != nil }

    /// The judge of a call `nsid` made with `method`, given the account it goes out as and the permissions it needs.
    ///
    /// A limited scope fails closed: a procedure (POST) whose permissions cannot be read from the request is refused,
    /// since nothing shows the token covers it.
    func admission(nsid: NSID, isProcedure: Bool) -> CallAdmission? {
        guard isLimited else { return nil }
        return { [accounts, scope] account, needed in
            if let accounts, !accounts.contains(account) {
                throw GatewayRefusal.accountNotAllowed(account)
            }
            guard let scope else { return }
            if let lacking = needed.first(where: { !scope.covers($0) }) {
                throw GatewayRefusal.tokenScopeMissing(lacking.description, nsid: nsid)
            }
            if needed.isEmpty, isProcedure {
                throw GatewayRefusal.tokenScopeMissing(nil, nsid: nsid)
            }
        }
    }
}
