import HTTPTransport

/// What a token endpoint's answer to a refresh means for the stored session (atproto.com/specs/oauth, Tokens and Session Lifetime); pure.
enum RefreshOutcome: Equatable {
    /// New tokens: store them, then use them.
    case refreshed
    /// The refresh token is gone for good (`invalid_grant` and the like): delete the session.
    case refused(serverError: String?, description: String?)
    /// A server or network problem: keep the session and report.
    case transient(status: Int, serverError: String?, description: String?)

    static func classify(_ response: HTTPResponse, error: (code: String?, description: String?)) -> RefreshOutcome {
        if response.isSuccess { return .refreshed }
        let definitive: Set<String> = ["invalid_grant", "invalid_client", "unauthorized_client", "invalid_scope"]
        if (400..<500).contains(response.status), let code = error.code, definitive.contains(code) {
            return .refused(serverError: code, description: error.description)
        }
        return .transient(status: response.status, serverError: error.code, description: error.description)
    }
}
