import Failures
import HTTPTransport

extension OAuthError {
    /// The `purpose` request (such as "token refresh") got no answer; `error` says why, and whether the server may
    /// have carried the request out all the same.
    static func networkFailure(_ purpose: String, _ error: TransportError) -> OAuthError {
        networkFailure(
            "The \(purpose) failed: \(Sentence.clause(error.description))",
            outcomeUnknown: error.mayHaveReachedServer
        )
    }

    /// The request could not be sent or its answer not read; `outcomeUnknown` when it may have reached the server.
    static func networkFailure(_ reason: String, outcomeUnknown: Bool) -> OAuthError {
        OAuthError(.networkFailure, .failed, reason, outcomeUnknown: outcomeUnknown)
    }
}
