import HTTPTransport
import WireFormat

extension RefreshOutcome {
    /// The XRPC errors that end an app-password session, as the reference PDS sends them (`400 ExpiredToken`,
    /// `400 InvalidToken`, `401 AuthenticationRequired`).
    static let appPasswordDefinitive: Set<String> = ["ExpiredToken", "InvalidToken", "AuthenticationRequired"]

    /// What a PDS's answer to `com.atproto.server.refreshSession` means for the stored app-password session; the
    /// `description` is the XRPC `message`.
    static func classifyAppPassword(_ response: HTTPResponse) -> RefreshOutcome {
        if response.isSuccess { return .refreshed }
        let body = ServerErrorBody(response.body, limit: nil)
        if response.status == 400 || response.status == 401, let code = body.error,
            appPasswordDefinitive.contains(code)
        {
            return .refused(serverError: code, description: body.explanation)
        }
        return .transient(status: response.status, serverError: body.error, description: body.explanation)
    }
}
