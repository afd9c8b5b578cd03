import Failures
import HTTPTransport

extension SessionError {
    /// The `purpose` request (such as "token refresh") got no answer; `error` says why, and whether the server may
    /// have carried the request out all the same.
    static func networkFailure(_ purpose: String, _ error: TransportError) -> SessionError {
        networkFailure(
            "The \(purpose) failed: \(Sentence.clause(error.description))",
            outcomeUnknown: error.mayHaveReachedServer
        )
    }

    /// `error`, a network failure of the refresh of `account`'s session, saying whose session it was refreshing.
    static func refreshing(_ error: any Error, account: String) -> any Error {
        guard let failure = error as? SessionError, failure.code == .networkFailure else { return error }
        return networkFailure(
            "While refreshing the session of \(account), \(Sentence.clause(failure.reason))",
            outcomeUnknown: failure.outcomeUnknown
        )
    }

    /// The request could not be sent or its answer not read; `outcomeUnknown` when it may have reached the server.
    static func networkFailure(_ reason: String, outcomeUnknown: Bool) -> SessionError {
        SessionError(.networkFailure, .failed, reason, outcomeUnknown: outcomeUnknown)
    }
}
