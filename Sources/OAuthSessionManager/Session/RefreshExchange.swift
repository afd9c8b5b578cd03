import Foundation
import HTTPTransport

/// What differs between refreshing an OAuth session and an app-password session.
///
/// That is the request, how its answer is read, and how tokens that cannot be kept are ended. The routine around it, the same for both kinds, is
/// `SessionManager.refreshRotating(_:exchange:)`.
struct RefreshExchange: Sendable {
    /// Names the request in errors and logs, such as "token refresh".
    var name: String
    /// Sends the refresh token.
    var send: @Sendable (_ refreshToken: String) async throws -> HTTPResponse
    /// What the answer means for the stored session.
    var classify: @Sendable (HTTPResponse) -> RefreshOutcome
    /// The error for a refresh the server refused for good.
    var refused: @Sendable (_ serverError: String?, _ description: String?) -> SessionError
    /// The session with the answer's new tokens; throws when the answer fails a check.
    var adopt: @Sendable (HTTPResponse) throws -> Session
    /// Ends at the server, best effort, the tokens of an answer that cannot be kept.
    var discard: @Sendable (HTTPResponse) async -> Void
    /// What ``discard`` does, for the message when the new tokens cannot be saved.
    var discardedWords: String
}
