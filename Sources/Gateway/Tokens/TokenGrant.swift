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

    /// The judge of a call `nsid` made with `method`, given the account it goes out as and what it needs of a grant.
    ///
    /// A limited scope is judged as a PDS judges an OAuth grant, and fails closed where the PDS's choices are not
    /// known here: a call forwarded to a service the caller does not name needs `rpc:<nsid>?aud=*`, a method a PDS
    /// lends to no grant (app passwords, account management) is refused, and so are a call whose permission cannot be
    /// written and a procedure (POST) whose permissions cannot be read from the request, since nothing shows the
    /// token covers them.
    func admission(nsid: NSID, isProcedure: Bool) -> CallAdmission? {
        guard isLimited else { return nil }
        return { [accounts, scope] account, needs in
            if let accounts, !accounts.contains(account) {
                throw GatewayRefusal.accountNotAllowed
            }
            guard let scope else { return }
            if needs.lentToNoGrant {
                throw GatewayRefusal.lentToNoGrant(nsid)
            }
            if !needs.isJudgeable {
                throw GatewayRefusal.tokenScopeMissing(nil, nsid: nsid)
            }
            if let lacking = needs.wherever.first(where: { !scope.covers($0) }) {
                throw GatewayRefusal.tokenScopeMissing(
                    lacking.description,
                    nsid: nsid,
                    unnamedService: needs.anyService == lacking
                )
            }
            if needs.wherever.isEmpty, isProcedure {
                throw GatewayRefusal.tokenScopeMissing(nil, nsid: nsid, unreadBody: true)
            }
        }
    }

    /// Whether an answer to `nsid` must lose the account's email before the token's caller reads it: a limited
    /// scope that may not read it, as a PDS answers `com.atproto.server.getSession` to such an OAuth grant
    /// (atproto.com/specs/permission, `account:email`).
    func hidesEmail(from nsid: NSID) -> Bool {
        guard let scope, nsid.rawValue == EmailRedaction.method else { return false }
        return !scope.allowsAccount(attr: .email, action: .read)
    }
}
