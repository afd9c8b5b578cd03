import ATClient
import ATProtoPermissions
import AccountManager
import Failures
import HTTPTransport

extension GatewayRefusal {
    /// The answer to a request whose forwarding threw `error`: the gateway's own refusal as it is, a missing
    /// permission as the PDS itself answers it, and any other error of the package from ``answer(_:_:)`` by its
    /// category and origin; a non-package error is 500.
    ///
    /// The messages are the errors' own descriptions, which never hold a token.
    static func answering(_ error: any Error) -> GatewayRefusal {
        switch error {
        case let refusal as GatewayRefusal: refusal
        case let missing as MissingPermissionError: scopeMissing(missing.permission?.description)
        case is CancellationError: shuttingDown
        case let failure as any CategorizedError: answer(failure.category, failure.origin).refusal(failure.description)
        default: internalError("The gateway could not forward the request (\(type(of: error))).")
        }
    }

    /// The gateway's answer to a failure, from its category (what to do) and origin (where it lies): one table.
    ///
    /// | category \ origin   | input                  | machine            | account            | upstream           |
    /// |---------------------|------------------------|--------------------|--------------------|--------------------|
    /// | usage               | 400 InvalidRequest     | 400 InvalidRequest | 500 (routing)      | 400 InvalidRequest |
    /// | signInNeeded        | 403 AccountNotSignedIn | 401 SessionEnded   | 401 SessionEnded   | 401 SessionEnded   |
    /// | securityCheckFailed | 502 UpstreamFailed     | 502 UpstreamFailed | 502 UpstreamFailed | 502 UpstreamFailed |
    /// | failed              | 500                    | 500                | 500                | 502 UpstreamFailed |
    /// | cancelled           | 503 ShuttingDown       | 503 ShuttingDown   | 503 ShuttingDown   | 503 ShuttingDown   |
    ///
    /// An account not signed in here is the caller's input (403); a session that ended, for whatever reason, is 401.
    /// A usage error about the account (a client bound to another, an upgrade of an OAuth account) is the gateway's
    /// own routing gone wrong (500 InternalServerError). A security check always guards the PDS's answer.
    static func answer(_ category: FailureCategory, _ origin: FailureOrigin) -> FailureAnswer {
        switch (category, origin) {
        case (.usage, .input), (.usage, .machine), (.usage, .upstream): .invalidRequest
        case (.usage, .account): .internalError
        case (.signInNeeded, .input): .accountNotSignedIn
        case (.signInNeeded, .machine), (.signInNeeded, .account), (.signInNeeded, .upstream): .sessionEnded
        case (.securityCheckFailed, _): .upstreamFailed
        case (.failed, .input), (.failed, .machine), (.failed, .account): .internalError
        case (.failed, .upstream): .upstreamFailed
        case (.cancelled, _): .shuttingDown
        }
    }

    /// One cell of ``answer(_:_:)``'s table: a refusal the gateway makes from an error's description.
    enum FailureAnswer: Sendable, Hashable, CaseIterable {
        /// 400 `InvalidRequest`.
        case invalidRequest
        /// 403 `AccountNotSignedIn`.
        case accountNotSignedIn
        /// 401 `SessionEnded`.
        case sessionEnded
        /// 502 `UpstreamFailed`.
        case upstreamFailed
        /// 503 `ShuttingDown`.
        case shuttingDown
        /// 500 `InternalServerError`.
        case internalError

        /// The refusal, with `message` where the answer carries one.
        func refusal(_ message: String) -> GatewayRefusal {
            switch self {
            case .invalidRequest: GatewayRefusal.invalidRequest(message)
            case .accountNotSignedIn: GatewayRefusal.accountNotSignedIn(message)
            case .sessionEnded: GatewayRefusal.sessionEnded(message)
            case .upstreamFailed: GatewayRefusal.upstreamFailed(message)
            case .shuttingDown: GatewayRefusal.shuttingDown
            case .internalError: GatewayRefusal.internalError(message)
            }
        }
    }
}
