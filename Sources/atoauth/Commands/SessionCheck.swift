import ATClient
import ATProtoSyntax
import AccountManager
import Failures
import HTTPTransport
import OAuthSessionManager
import SignInDoctor
import WireFormat

/// `accounts status --check`: whether the PDS still accepts a session, asked with `com.atproto.server.getSession`.
struct SessionCheck: Encodable {
    enum Result: String, Encodable {
        /// The PDS accepted the session.
        case valid
        /// The server ended the session; it was deleted here.
        case ended
        /// The PDS could not be asked, or answered with an error.
        case failed
    }

    var result: Result
    /// What went wrong, for `ended` and `failed`; never a token.
    var message: String?

    /// Asks the PDS as `account` (refreshing the session when due, as any call does).
    static func run(_ account: Account, accounts: AccountManager) async -> SessionCheck {
        do {
            _ = try await accounts.client(for: .did(account.did)).getSession()
            return SessionCheck(result: .valid)
        } catch let error as AccountError where error.category == .signInNeeded {
            return SessionCheck(result: .ended, message: CLIFailure(error).message)
        } catch {
            return SessionCheck(result: .failed, message: CLIFailure(error).message)
        }
    }

    /// The `checked` line of the readable status.
    var text: String {
        switch result {
        case .valid: "valid: the PDS accepts the session (com.atproto.server.getSession)"
        case .ended: "ended: \(message ?? "the server ended the session")"
        case .failed: "failed: \(message ?? "the PDS could not be asked")"
        }
    }
}

extension SessionCheck {
    /// The doctor's read-only form of the check: `com.atproto.server.getSession` sent once with the stored access
    /// token, as this process read it: no refresh, no retry, nothing written (`accounts status --check` refreshes
    /// when due, and deletes a session the server ended).
    static func asStored(_ connection: AccountConnection) async -> LocalAccount.SessionAnswer {
        let response: HTTPResponse
        do {
            response = try await connection.sendAsLastRead(.get, path: "/xrpc/com.atproto.server.getSession")
        } catch {
            return .unanswered(CLIFailure(error).message)
        }
        let body = ServerErrorBody(response.body)
        let said = [body.error, body.message ?? body.errorDescription].compactMap { $0 }.joined(separator: ": ")
        let answer = TerminalText.sanitized("HTTP \(response.status)" + (said.isEmpty ? "" : " \(said)"), limit: 300)
        if response.status == 200 { return .accepted }
        // Refused as a request's own retry would see it (RFC 6750 §3.1; an app-password session's XRPC errors).
        if InvalidTokenAnswer.matches(response, kind: connection.session.kind) { return .refused(answer) }
        return .unanswered("the PDS answered \(answer)")
    }
}
