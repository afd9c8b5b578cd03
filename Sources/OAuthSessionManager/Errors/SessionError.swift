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

    enum Kind: String, Hashable, Sendable {
        case networkFailure
        case invalidPKCEVerifier
        case invalidProtectedResourceMetadata
        case invalidAuthorizationServerMetadata
        case invalidClientMetadata
        case invalidCallback
        case unknownState
        case authorizationExpired
        case issuerMismatch
        case authorizationFailed
        case requestFailed
        case invalidTokenResponse
        case subjectMismatch
        case issuerNotConfirmed
        case signInNeeded
        case refreshRefused
        case storedSessionUnreadable
        case dpopFailed
        case appPasswordRefused
        case authFactorRequired
        case invalidInput
        case oauthSessionKept
        case promptNotSupported
    }

    let kind: Kind
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

    init(
        _ kind: Kind,
        _ category: FailureCategory,
        _ reason: String,
        field: String? = nil,
        status: Int? = nil,
        serverError: ServerCode? = nil,
        serverErrorDescription: String? = nil,
        outcomeUnknown: Bool = false,
        metadata: MetadataError? = nil
    ) {
        self.kind = kind
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
    package init(_ error: MetadataError) {
        let kind: Kind =
            switch error.code {
            case .invalidProtectedResourceMetadata: .invalidProtectedResourceMetadata
            case .invalidAuthorizationServerMetadata: .invalidAuthorizationServerMetadata
            case .invalidClientMetadata: .invalidClientMetadata
            case .storedKeyUnreadable: .storedSessionUnreadable
            default: .invalidInput
            }
        self.init(kind, error.category, error.reason, field: error.field, metadata: error)
    }

    /// Whether both errors are the same failure, ignoring the details.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func hasSameCode(as other: SessionError) -> Bool { code == other.code }

    /// Sign in again when the session is gone; give the sign-in code when the PDS asked for one.
    public var remedy: Remedy {
        if kind == .authFactorRequired { return .giveSignInCode }
        if kind == .oauthSessionKept { return .confirmReplacingOAuth }
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
        return kind == .networkFailure ? Sentence.ended(reason) : signInSummary
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
    /// Which failure this is, whatever its details: `error.code == .invalidPKCEVerifier`.
    public var code: FailureCode<SessionError> { FailureCode(kind.rawValue) }

    /// Where the failure lies: the caller's input for what it gave (a verifier, client metadata, a callback, a
    /// sign-in code, a choice to confirm) or a sign-in left too long; the account for a session that is gone;
    /// this machine for a stored session it cannot read; the servers otherwise.
    public var origin: FailureOrigin {
        switch kind {
        case .invalidPKCEVerifier, .invalidClientMetadata, .invalidCallback, .unknownState, .authorizationExpired,
            .authFactorRequired, .invalidInput, .oauthSessionKept:
            .input
        case .signInNeeded, .refreshRefused: .account
        case .storedSessionUnreadable: .machine
        case .networkFailure, .invalidProtectedResourceMetadata, .invalidAuthorizationServerMetadata, .issuerMismatch,
            .authorizationFailed, .requestFailed, .invalidTokenResponse, .subjectMismatch, .issuerNotConfirmed,
            .dpopFailed, .appPasswordRefused, .promptNotSupported:
            .upstream
        }
    }
}

extension FailureCode where Failure == SessionError {
    /// The code of `SessionError.networkFailure`.
    public static let networkFailure = Self("networkFailure")
    /// The code of `SessionError.invalidPKCEVerifier`.
    public static let invalidPKCEVerifier = Self("invalidPKCEVerifier")
    /// The code of `SessionError.invalidProtectedResourceMetadata`.
    public static let invalidProtectedResourceMetadata = Self("invalidProtectedResourceMetadata")
    /// The code of `SessionError.invalidAuthorizationServerMetadata`.
    public static let invalidAuthorizationServerMetadata = Self("invalidAuthorizationServerMetadata")
    /// The code of `SessionError.invalidClientMetadata`.
    public static let invalidClientMetadata = Self("invalidClientMetadata")
    /// The code of `SessionError.invalidCallback`.
    public static let invalidCallback = Self("invalidCallback")
    /// The code of `SessionError.unknownState`.
    public static let unknownState = Self("unknownState")
    /// The code of `SessionError.authorizationExpired`.
    public static let authorizationExpired = Self("authorizationExpired")
    /// The code of `SessionError.issuerMismatch`.
    public static let issuerMismatch = Self("issuerMismatch")
    /// The code of `SessionError.authorizationFailed`.
    public static let authorizationFailed = Self("authorizationFailed")
    /// The code of `SessionError.requestFailed`.
    public static let requestFailed = Self("requestFailed")
    /// The code of `SessionError.invalidTokenResponse`.
    public static let invalidTokenResponse = Self("invalidTokenResponse")
    /// The code of `SessionError.subjectMismatch`.
    public static let subjectMismatch = Self("subjectMismatch")
    /// The code of `SessionError.issuerNotConfirmed`.
    public static let issuerNotConfirmed = Self("issuerNotConfirmed")
    /// The code of `SessionError.signInNeeded`.
    public static let signInNeeded = Self("signInNeeded")
    /// The code of `SessionError.refreshRefused`.
    public static let refreshRefused = Self("refreshRefused")
    /// The code of `SessionError.storedSessionUnreadable`.
    public static let storedSessionUnreadable = Self("storedSessionUnreadable")
    /// The code of `SessionError.dpopFailed`.
    public static let dpopFailed = Self("dpopFailed")
    /// The code of `SessionError.appPasswordRefused`.
    public static let appPasswordRefused = Self("appPasswordRefused")
    /// The code of `SessionError.authFactorRequired`.
    public static let authFactorRequired = Self("authFactorRequired")
    /// The code of `SessionError.invalidInput`.
    public static let invalidInput = Self("invalidInput")
    /// The code of `SessionError.oauthSessionKept`.
    public static let oauthSessionKept = Self("oauthSessionKept")
    /// The code of `SessionError.promptNotSupported`.
    public static let promptNotSupported = Self("promptNotSupported")
}

/// The former name of ``SessionError``, from before app-password sessions shared it.
@available(*, deprecated, renamed: "SessionError")
public typealias OAuthError = SessionError
