import Failures
import Foundation
import OAuthMetadata

extension SessionError {
    /// A client metadata document or loopback client configuration breaks a rule (atproto.com/specs/oauth, Clients).
    public static func invalidClientMetadata(field: String, reason: String) -> SessionError {
        SessionError(MetadataError.invalidClientMetadata(field: field, reason: reason))
    }

    /// The redirect back to the client is malformed: no `state`, no `code`, or a repeated parameter.
    public static func invalidCallback(_ reason: String) -> SessionError {
        SessionError(.invalidCallback, .securityCheckFailed, reason)
    }

    /// The callback's `state` matches no pending sign-in: unknown, already used, or from another client.
    public static let unknownState = SessionError(
        .unknownState,
        .securityCheckFailed,
        "the callback's state matches no pending sign-in (it is unknown or was already used)"
    )

    /// The pending sign-in is older than ten minutes.
    public static let authorizationExpired = SessionError(
        .authorizationExpired,
        .failed,
        "the sign-in was started more than ten minutes ago"
    )

    /// The callback's `iss` is missing or is not the issuer the request went to (RFC 9207 §2.4).
    public static func issuerMismatch(_ reason: String) -> SessionError {
        SessionError(.issuerMismatch, .securityCheckFailed, reason, field: "iss")
    }

    /// The authorization server redirected back with an `error`, such as `access_denied`.
    public static func authorizationFailed(serverError: String, description: String?) -> SessionError {
        SessionError(
            .authorizationFailed,
            .failed,
            "the authorization server did not authorize the sign-in",
            serverError: ServerCode(rawValue: serverError),
            serverErrorDescription: description
        )
    }

    /// A PAR, token or revocation request was answered with an error status.
    public static func requestFailed(
        _ what: String,
        status: Int,
        serverError: String?,
        description: String?
    ) -> SessionError {
        SessionError(
            .requestFailed,
            .failed,
            "\(what) failed with HTTP \(status)",
            status: status,
            serverError: serverError.map(ServerCode.init(rawValue:)),
            serverErrorDescription: description
        )
    }

    /// A token (or PAR) answer failed a client-side check (atproto.com/specs/oauth, Authorization Flow).
    public static func invalidTokenResponse(_ reason: String) -> SessionError {
        SessionError(.invalidTokenResponse, .securityCheckFailed, reason)
    }

    /// The tokens' `sub` is not the account the sign-in started from (atproto.com/specs/oauth, Authorization Flow).
    public static func subjectMismatch(_ reason: String) -> SessionError {
        SessionError(.subjectMismatch, .securityCheckFailed, reason, field: "sub")
    }

    /// Re-resolving the account did not lead back to the issuer that issued the tokens
    /// (atproto.com/specs/oauth, Authorization Flow; Tokens and Session Lifetime).
    public static func issuerNotConfirmed(_ reason: String) -> SessionError {
        SessionError(.issuerNotConfirmed, .securityCheckFailed, reason, field: "issuer")
    }

    /// There is no usable session for the account.
    public static func signInNeeded(_ reason: String) -> SessionError {
        SessionError(.signInNeeded, .signInNeeded, reason)
    }

    /// The server refused the refresh token (`invalid_grant`); the session was deleted
    /// (atproto.com/specs/oauth, Tokens and Session Lifetime).
    public static func refreshRefused(serverError: String?, description: String?) -> SessionError {
        SessionError(
            .refreshRefused,
            .signInNeeded,
            "the authorization server no longer accepts this session",
            serverError: serverError.map(ServerCode.init(rawValue:)),
            serverErrorDescription: description
        )
    }

    /// A stored session or key cannot be read back.
    public static func storedSessionUnreadable(_ reason: String) -> SessionError {
        SessionError(.storedSessionUnreadable, .signInNeeded, reason)
    }

    /// DPoP failed: the server kept rejecting proofs or nonces.
    public static func dpopFailed(_ reason: String) -> SessionError {
        SessionError(.dpopFailed, .securityCheckFailed, reason)
    }

    /// The PDS refused an app-password sign-in (`com.atproto.server.createSession`): a wrong identifier, password or
    /// sign-in code, or an account it does not serve as asked.
    public static func appPasswordRefused(status: Int, serverError: String?, message: String?) -> SessionError {
        SessionError(
            .appPasswordRefused,
            .failed,
            "the PDS refused the app-password sign-in (HTTP \(status))",
            status: status,
            serverError: serverError.map(ServerCode.init(rawValue:)),
            serverErrorDescription: message
        )
    }

    /// The input cannot be used for this kind of sign-in; `reason` is whole sentences.
    public static func invalidInput(_ reason: String) -> SessionError {
        SessionError(.invalidInput, .usage, reason)
    }

    /// An app-password sign-in would replace the OAuth session `account` has here, and replacing it was not asked
    /// for; nothing was sent to the PDS.
    public static func oauthSessionKept(account: String, scope: String) -> SessionError {
        SessionError(
            .oauthSessionKept,
            .usage,
            "\(account) signs in here with OAuth, granted \(scope)"
        )
    }

    /// The authorization server does not list `prompt` in its `prompt_values_supported`; nothing was sent.
    public static func promptNotSupported(_ prompt: SignInPrompt, issuer: String) -> SessionError {
        let reason =
            prompt == .create
            ? "The authorization server \(issuer) does not offer sign-up (prompt=create is not in its "
                + "prompt_values_supported): create the account on its website, then sign in to it"
            : "The authorization server \(issuer) does not list prompt=\(prompt.rawValue) in its "
                + "prompt_values_supported: sign in without it"
        return SessionError(.promptNotSupported, .usage, reason)
    }

    /// The PDS asks for a sign-in code (`AuthFactorTokenRequired`) and none was given.
    public static let authFactorRequired = SessionError(
        .authFactorRequired,
        .usage,
        "the PDS asks for the sign-in code it sent by email (two-factor sign-in), and none was given"
    )

    /// The PDS refused to refresh an app-password session (`ExpiredToken`, `InvalidToken`); it was deleted here.
    public static func appPasswordRefreshRefused(serverError: String?, message: String?) -> SessionError {
        SessionError(
            .refreshRefused,
            .signInNeeded,
            "the PDS no longer accepts this app-password session",
            serverError: serverError.map(ServerCode.init(rawValue:)),
            serverErrorDescription: message
        )
    }

    /// A refresh's new tokens could not be saved in the store (`failure`, the store's own words), and the session
    /// stored before is kept: its refresh token may be sent again, as an app-password session's may.
    public static func sessionNotSaved(_ account: String, _ failure: any Error) -> SessionError {
        SessionError(.sessionNotSaved, .failed, "the refreshed tokens of \(account) could not be saved (\(failure))")
    }

    var signInSummary: String {
        switch code {
        case .invalidCallback, .unknownState, .issuerMismatch:
            "The sign-in callback failed a security check: \(reason). Nothing was stored; start the sign-in again."
        case .authorizationExpired: "The sign-in expired: \(reason). Start it again."
        case .authorizationFailed: "Sign-in did not complete: \(reason). Nothing was stored."
        case .requestFailed: requestFailedSummary
        case .invalidTokenResponse, .subjectMismatch, .issuerNotConfirmed:
            "The tokens failed a security check: \(reason). They were not used and nothing was stored."
        case .signInNeeded, .storedSessionUnreadable: "Sign-in needed: \(reason)."
        case .refreshRefused: "Sign-in needed: \(reason). The account must sign in again."
        case .dpopFailed: "DPoP failed: \(reason)."
        case .appPasswordRefused: "Sign-in did not complete: \(reason). Nothing was stored."
        case .authFactorRequired: "Sign-in did not complete: \(reason). Nothing was stored."
        case .promptNotSupported: "\(reason). Nothing was sent."
        case .sessionNotSaved: "Refresh not saved: \(reason)."
        case .oauthSessionKept:
            "\(reason). An app-password session would replace that session, revoke its grant, and hold the account's "
                + "full rights instead of the permissions granted. Nothing was changed and no password was sent."
        default: reason
        }
    }

    /// What to do, said after the server's own words (RFC 6749 §4.1.2.1).
    var adviceAfterServerWords: String {
        switch (code, serverError) {
        case (.authorizationFailed, .some(.accessDenied)):
            " To sign in, run the command again and approve in the browser."
        case (.authorizationFailed, _): " Start the sign-in again."
        case (.requestFailed, .some(.invalidScope)): " Ask for permissions it supports (see --scope)."
        case (.appPasswordRefused, _):
            " Check the handle and the app password (or sign-in code), and try again."
        case (.requestFailed, .some(.invalidClient)), (.requestFailed, .some(.unauthorizedClient)):
            " Check the client metadata document or --client-id. A confidential client's assertions are refused too "
                + "when this machine's clock is more than 30 seconds off the server's; `atoauth doctor` checks both."
        case (.requestFailed, _) where sessionKept, (.networkFailure, _) where sessionKept,
            (.sessionNotSaved, _) where sessionKept:
            " The session is kept."
        default: ""
        }
    }

    /// A failed request's advice depends on who can fix it: the server (5xx or 429: later), the request (other 4xx:
    /// not by retrying).
    private var requestFailedSummary: String {
        switch (status ?? 0, serverError) {
        case (_, .some(.invalidScope)): "The server refused the requested permissions: \(reason)."
        case (_, .some(.invalidClient)), (_, .some(.unauthorizedClient)):
            "The server does not accept this client: \(reason)."
        case (let status, _):
            if let trouble = ServerTrouble.advice(forStatus: status) {
                "The request failed: \(reason). \(trouble)"
            } else if (400...499).contains(status) {
                "The server refused the request: \(reason)."
            } else {
                "The request failed: \(reason)."
            }
        }
    }
}
