import ATClient
import ATProtoPermissions
import AccountManager
import Failures
import HTTPTransport

extension GatewayRefusal {
    /// The answer to a request whose forwarding threw `error`: the permission the PDS would ask for, the account that
    /// is not signed in or whose session ended, the PDS that could not be reached, or, for anything else, 500.
    ///
    /// The messages are the errors' own descriptions, which never hold a token.
    static func answering(_ error: any Error) -> GatewayRefusal {
        switch error {
        case let refusal as GatewayRefusal: refusal
        case let missing as MissingPermissionError: scopeMissing(missing.permission?.description)
        case let account as AccountError: signInFailure(account)
        case let request as XRPCRequestError: invalidRequest(request.description)
        case is CancellationError: shuttingDown
        case let transport as TransportError:
            transport.category == .cancelled ? shuttingDown : upstreamFailed(transport.description)
        case let fetch as FetchError: upstreamFailed(fetch.description)
        case let categorized as any CategorizedError: failure(categorized)
        default: internalError("The gateway could not forward the request (\(type(of: error))).")
        }
    }

    /// The sign-in failures: none signed in, none active or not this one is 403, an ended session 401.
    private static func signInFailure(_ error: AccountError) -> GatewayRefusal {
        let notSignedIn: [AccountError] = [.noAccounts, .noActiveAccount(""), .noSuchAccount("")]
        let ended: [AccountError] = [
            .sessionEnded("", requestedScope: nil, reason: ""), .signedOutByServer("", requestedScope: nil, reason: ""),
            .sessionRejected(""), .activeAccountSignedOut(""),
        ]
        if notSignedIn.contains(where: { error.hasSameCode(as: $0) }) { return accountNotSignedIn(error.description) }
        if ended.contains(where: { error.hasSameCode(as: $0) }) { return sessionEnded(error.description) }
        if error.hasSameCode(as: .invalidRequest("")) { return invalidRequest(error.description) }
        return internalError(error.description)
    }

    /// Another error of the package, by its category: a security check on the PDS's answer (its DPoP nonce, say)
    /// is the PDS's failure; a sign-in needed ends the session; the rest is the gateway's.
    private static func failure(_ error: any CategorizedError) -> GatewayRefusal {
        switch error.category {
        case .signInNeeded: sessionEnded(error.description)
        case .securityCheckFailed: upstreamFailed(error.description)
        case .usage: invalidRequest(error.description)
        case .cancelled: shuttingDown
        case .failed: internalError(error.description)
        }
    }
}
