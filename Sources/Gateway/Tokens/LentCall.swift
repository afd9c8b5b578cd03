import ATClient
import ATProtoSyntax
import HTTPTransport

/// An XRPC call as the gateway lends it: its method and the grant of the token it came with.
struct LentCall: Sendable {
    var nsid: NSID
    var method: HTTPMethod
    var grant: TokenGrant

    /// The account the call goes out as when it names none: the token's one account, else the gateway's own choice.
    func fallback(_ configuration: GatewayConfiguration) -> ATIdentifier? {
        grant.fallback(otherwise: configuration.fallbackAccount)
    }

    /// The judge of the account and permissions, when the token is limited.
    var admit: CallAdmission? { grant.admission(nsid: nsid, isProcedure: method == .post) }
}
