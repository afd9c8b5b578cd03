public import Failures
import Foundation
package import OAuthMetadata
import WireFormat

/// A failure of a session, OAuth or app-password: bad input, an identity or metadata check that failed, or a server
/// or network problem (atproto.com/specs/oauth, Identity Authentication; com.atproto.server.createSession).
///
/// The error carries the server's own answer as data (its OAuth `error` and `error_description`, the HTTP status)
/// and its ``category``. It never carries a token or a secret.
public struct SessionError: CategorizedError, Hashable {
    /// An OAuth `error` code from a server's answer (RFC 6749 §5.2, RFC 9449 §8); an open set.
    public struct ServerCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as the server sent it.
        public var rawValue: String

        /// Creates a code from the server's string.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `invalid_request`.
        public static let invalidRequest = ServerCode(rawValue: "invalid_request")
        /// `invalid_client`.
        public static let invalidClient = ServerCode(rawValue: "invalid_client")
        /// `unauthorized_client`.
        public static let unauthorizedClient = ServerCode(rawValue: "unauthorized_client")
        /// `invalid_grant`: the code or refresh token is no longer valid.
        public static let invalidGrant = ServerCode(rawValue: "invalid_grant")
        /// `invalid_scope`.
        public static let invalidScope = ServerCode(rawValue: "invalid_scope")
        /// `access_denied`: the user declined.
        public static let accessDenied = ServerCode(rawValue: "access_denied")
        /// `invalid_token`.
        public static let invalidToken = ServerCode(rawValue: "invalid_token")
        /// `use_dpop_nonce` (RFC 9449 §8).
        public static let useDPoPNonce = ServerCode(rawValue: "use_dpop_nonce")
        /// `invalid_dpop_proof` (RFC 9449 §7.1).
        public static let invalidDPoPProof = ServerCode(rawValue: "invalid_dpop_proof")
        /// `server_error`.
        public static let serverError = ServerCode(rawValue: "server_error")
        /// `temporarily_unavailable`.
        public static let temporarilyUnavailable = ServerCode(rawValue: "temporarily_unavailable")

        /// The code as the server sent it, made safe to print.
        public var description: String { SessionError.printable(rawValue, limit: 80) }
    }

    /// Which failure a ``SessionError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .networkFailure`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// The request could not be sent or its answer not read (DNS, connection, timeout).
        case networkFailure
        /// A PKCE verifier is not 43–128 unreserved characters (RFC 7636 §4.1).
        case invalidPKCEVerifier
        /// The protected resource metadata failed a check (RFC 9728 §3; atproto.com/specs/oauth, Authorization
        /// Servers).
        case invalidProtectedResourceMetadata
        /// The authorization server metadata failed a check (RFC 8414 §3; atproto.com/specs/oauth, Authorization
        /// Servers).
        case invalidAuthorizationServerMetadata
        /// A client metadata document or loopback client configuration breaks a rule (atproto.com/specs/oauth,
        /// Clients).
        case invalidClientMetadata
        /// The redirect back to the client is malformed: no `state`, no `code`, or a repeated parameter.
        case invalidCallback
        /// The callback's `state` matches no pending sign-in: unknown, already used, or from another client.
        case unknownState
        /// The pending sign-in is older than ten minutes.
        case authorizationExpired
        /// The callback's `iss` is missing or is not the issuer the request went to (RFC 9207 §2.4).
        case issuerMismatch
        /// The authorization server redirected back with an `error`, such as `access_denied`.
        case authorizationFailed
        /// A PAR, token or revocation request was answered with an error status.
        case requestFailed
        /// A token (or PAR) answer failed a client-side check (atproto.com/specs/oauth, Authorization Flow).
        case invalidTokenResponse
        /// The tokens' `sub` is not the account the sign-in started from (atproto.com/specs/oauth, Authorization Flow).
        case subjectMismatch
        /// Re-resolving the account did not lead back to the issuer that issued the tokens (atproto.com/specs/oauth,
        /// Authorization Flow; Tokens and Session Lifetime).
        case issuerNotConfirmed
        /// There is no usable session for the account.
        case signInNeeded
        /// The server refused the refresh token (`invalid_grant`); the session was deleted (atproto.com/specs/oauth,
        /// Tokens and Session Lifetime).
        case refreshRefused
        /// A stored session or key cannot be read back.
        case storedSessionUnreadable
        /// DPoP failed: the server kept rejecting proofs or nonces.
        case dpopFailed
        /// The PDS refused an app-password sign-in (`com.atproto.server.createSession`): a wrong identifier, password
        /// or sign-in code, or an account it does not serve as asked.
        case appPasswordRefused
        /// The PDS asks for a sign-in code (`AuthFactorTokenRequired`) and none was given.
        case authFactorRequired
        /// The input cannot be used for this kind of sign-in.
        case invalidInput
        /// An app-password sign-in would replace the account's OAuth session here, and replacing it was not asked for;
        /// nothing was sent to the PDS.
        case oauthSessionKept
        /// The authorization server does not list `prompt` in its `prompt_values_supported`; nothing was sent.
        case promptNotSupported
        /// A refresh's new tokens could not be saved, and the stored session was kept, since its refresh token may be
        /// sent again (an app-password session).
        case sessionNotSaved
    }

    /// Which failure this is, whatever its details: `error.code == .invalidPKCEVerifier`.
    public let code: Code
    /// `securityCheckFailed` for a failed identity, metadata, issuer, `state`, `iss`, `sub` or DPoP check;
    /// `signInNeeded` when the account has no usable session; `failed` for the network or a server; `usage` for input
    /// that cannot be used.
    public let category: FailureCategory
    /// What went wrong, in words; names the failed check and never contains a token or secret.
    public let reason: String
    /// The document or metadata member whose check failed, such as `issuer`, when there is one.
    public let field: String?
    /// The HTTP status of the answer that caused the error, when there was one.
    public let status: Int?
    /// The server's OAuth `error` code (RFC 6749 §5.2), when it sent one.
    public let serverError: ServerCode?
    /// The server's `error_description` (or XRPC `message`), made safe to print, when it sent one.
    public let serverErrorDescription: String?
    /// Whether the failed request may have reached the server and been carried out though no answer was read (a
    /// timeout, a connection cut after sending); only a network failure says so.
    let outcomeUnknown: Bool
    /// The metadata or client key failure this error carries on, which says it in its own words.
    let metadata: MetadataError?
    /// Whether a failed refresh left the session as it was, to be refreshed again later; the message says so.
    var sessionKept = false

    init(
        _ code: Code,
        _ category: FailureCategory,
        _ reason: String,
        field: String? = nil,
        status: Int? = nil,
        serverError: ServerCode? = nil,
        serverErrorDescription: String? = nil,
        outcomeUnknown: Bool = false,
        metadata: MetadataError? = nil
    ) {
        self.code = code
        self.category = category
        self.reason = Self.printable(reason)
        self.field = field
        self.status = status
        self.serverError = serverError
        self.serverErrorDescription = serverErrorDescription.map { Self.printable($0) }
        self.outcomeUnknown = outcomeUnknown
        self.metadata = metadata
    }

    /// The same failure where a sign-in or refresh needs it: a client key set the store cannot read is a stored
    /// session that cannot be used.
    ///
    /// The switch has no `default`: within the package a `@nonexhaustive` enum is still switched exhaustively, so a
    /// new `MetadataError` code does not compile until it is mapped here.
    package init(_ error: MetadataError) {
        let code: Code =
            switch error.code {
            case .invalidProtectedResourceMetadata: .invalidProtectedResourceMetadata
            case .invalidAuthorizationServerMetadata: .invalidAuthorizationServerMetadata
            case .invalidClientMetadata: .invalidClientMetadata
            case .invalidInput: .invalidInput
            case .storedKeyUnreadable: .storedSessionUnreadable
            }
        self.init(code, error.category, error.reason, field: error.field, metadata: error)
    }

    /// Whether both errors are the same failure, ignoring the details.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func hasSameCode(as other: SessionError) -> Bool { code == other.code }

    /// Sign in again when the session is gone; give the sign-in code when the PDS asked for one.
    public var remedy: Remedy {
        if code == .authFactorRequired { return .giveSignInCode }
        if code == .oauthSessionKept { return .confirmReplacingOAuth }
        return category == .signInNeeded ? .signInAgain(account: nil, scope: nil, orSwitch: false) : .none
    }

    /// A sentence or two for people: what happened and what to do.
    public var description: String {
        summary
            + ServerErrorBody.sentence(
                error: serverError.map(String.init(describing:)),
                description: serverErrorDescription
            ) + adviceAfterServerWords
    }

    private var summary: String {
        if let metadata { return metadata.description }
        return code == .networkFailure ? Sentence.ended(reason) : signInSummary
    }

    /// Removes control characters and shortens text that came from the user or a server, so it prints safely.
    static func printable(_ text: String, limit: Int = 300) -> String {
        TerminalText.sanitized(text, limit: limit)
    }
}

extension SessionError {
    /// The request could not be sent or its answer not read (DNS, connection, timeout); `reason` is whole sentences
    /// that say what to do.
    public static func networkFailure(_ reason: String) -> SessionError {
        SessionError(.networkFailure, .failed, reason)
    }

    /// A PKCE verifier is not 43–128 unreserved characters (RFC 7636 §4.1).
    public static func invalidPKCEVerifier(_ reason: String) -> SessionError {
        SessionError(.invalidPKCEVerifier, .usage, reason)
    }

    /// The protected resource metadata failed a check (RFC 9728 §3; atproto.com/specs/oauth, Authorization
    /// Servers, RFC 9728 §3); `field` names it.
    public static func invalidProtectedResourceMetadata(_ reason: String, field: String? = nil) -> SessionError {
        SessionError(MetadataError.invalidProtectedResourceMetadata(reason, field: field))
    }

    /// The authorization server metadata failed a check (RFC 8414 §3; atproto.com/specs/oauth, Authorization
    /// Servers, RFC 8414 §3); `field` names it.
    public static func invalidAuthorizationServerMetadata(_ reason: String, field: String? = nil) -> SessionError {
        SessionError(MetadataError.invalidAuthorizationServerMetadata(reason, field: field))
    }
}

extension SessionError {
    /// Where the failure lies: the caller's input for what it gave (a verifier, client metadata, a callback, a
    /// sign-in code, a choice to confirm) or a sign-in left too long; the account for a session that is gone;
    /// this machine for a stored session it cannot read; the servers otherwise.
    public var origin: FailureOrigin {
        switch code {
        case .invalidPKCEVerifier, .invalidClientMetadata, .invalidCallback, .unknownState, .authorizationExpired,
            .authFactorRequired, .invalidInput, .oauthSessionKept:
            .input
        case .signInNeeded, .refreshRefused: .account
        case .storedSessionUnreadable, .sessionNotSaved: .machine
        case .networkFailure, .invalidProtectedResourceMetadata, .invalidAuthorizationServerMetadata, .issuerMismatch,
            .authorizationFailed, .requestFailed, .invalidTokenResponse, .subjectMismatch, .issuerNotConfirmed,
            .dpopFailed, .appPasswordRefused, .promptNotSupported:
            .upstream
        }
    }
}

/// The former name of ``SessionError``, from before app-password sessions shared it.
@available(*, deprecated, renamed: "SessionError")
public typealias OAuthError = SessionError
