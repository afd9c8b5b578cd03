import ATClient
import ATProtoSyntax
import HTTPTransport
import Synchronization

/// An XRPC call as the gateway lends it: its method and the grant of the token it came with.
struct LentCall: Sendable {
    var nsid: NSID
    var method: HTTPMethod
    var grant: TokenGrant
    /// Whether the call names its account (`atoauth-account`, or a `repo` query parameter).
    var namesAccount = false
    /// Set once the call's account was found and judged: a failure before comes from finding the account.
    let judged = JudgedMark()

    /// The account the call goes out as when it names none: the token's one account, else the gateway's own choice.
    func fallback(_ configuration: GatewayConfiguration) -> ATIdentifier? {
        grant.fallback(otherwise: configuration.fallbackAccount)
    }

    /// The judge of the account and permissions, when the token is limited.
    var admit: CallAdmission? {
        guard let admission = grant.admission(nsid: nsid, isProcedure: method == .post) else { return nil }
        return { [judged] account, needs in
            judged.mark()
            try admission(account, needs)
        }
    }

    /// How a failure of the call is answered: for a token limited to some accounts, a call naming an account that
    /// failed before its account was judged (not signed in here, a damaged or ended session) is `AccountNotAllowed`,
    /// so that the token learns nothing of the accounts it may not use.
    func refusal(of error: any Error) -> GatewayRefusal {
        let refusal = GatewayRefusal.answering(error)
        guard grant.accounts != nil, namesAccount, !judged.isMarked, !(error is GatewayRefusal) else { return refusal }
        return .accountNotAllowed
    }
}

/// A mark set once, read from any task.
final class JudgedMark: Sendable {
    private let marked = Atomic(false)

    func mark() { marked.store(true, ordering: .relaxed) }

    var isMarked: Bool { marked.load(ordering: .relaxed) }
}
