import ATClient
import ATProtoSyntax
import AccountManager
import Failures

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
            return SessionCheck(result: .ended, message: error.description)
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
