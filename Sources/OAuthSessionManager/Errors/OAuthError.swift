public import Foundation

/// A failure of the AT Protocol OAuth client: bad input, an identity or metadata check that failed, or a server
/// or network problem (ATPROTO-OAUTH §1–§3).
///
/// The error carries the server's own answer as data (its OAuth `error` and `error_description`, the HTTP status)
/// and a ``Kind`` that the command-line tool maps to its exit status. It never carries a token or a secret.
public struct OAuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How a failure is classified; the command-line tool maps each kind to an exit status.
    public enum Kind: Sendable, Hashable {
        /// A check that protects the user failed: identity, metadata, issuer, `state`, `iss`, `sub` or DPoP (exit 4).
        case securityCheckFailed
        /// The account has no usable session and the user must sign in again (exit 3).
        case signInNeeded
        /// The operation failed because of the network or the server (exit 1).
        case failed
        /// The input cannot be used, such as an invalid handle (exit 2).
        case usage
    }

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
        public var description: String { OAuthError.printable(rawValue, limit: 80) }
    }

    enum Code: Hashable, Sendable {
        case invalidInput
        case invalidHandle
        case invalidDID
        case handleResolutionFailed
        case conflictingHandleRecords
        case handleMethodsDisagree
        case didResolutionFailed
        case invalidDIDDocument
        case handleNotConfirmed
        case unsafeDestination
        case redirectRefused
        case unexpectedStatus
        case unexpectedContentType
        case responseTooLarge
        case networkFailure
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
        case callbackTimedOut
    }

    let code: Code
    /// The classification the command-line tool maps to an exit status.
    public let kind: Kind
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

    init(
        _ code: Code,
        _ kind: Kind,
        _ reason: String,
        field: String? = nil,
        status: Int? = nil,
        serverError: ServerCode? = nil,
        serverErrorDescription: String? = nil
    ) {
        self.code = code
        self.kind = kind
        self.reason = Self.printable(reason)
        self.field = field
        self.status = status
        self.serverError = serverError
        self.serverErrorDescription = serverErrorDescription.map { Self.printable($0) }
    }

    /// Whether both errors are the same failure, ignoring the details.
    public func hasSameCode(as other: OAuthError) -> Bool { code == other.code }

    /// A sentence or two for people: what happened and what to do.
    public var description: String {
        var text = summary
        if let serverError {
            text += " The server answered “\(serverError)”"
            if let serverErrorDescription { text += ": \(serverErrorDescription)" }
            text += "."
        }
        return text
    }

    private var summary: String {
        switch code {
        case .invalidInput:
            "Cannot use this account: \(reason). Give a handle (alice.example.com), a DID or an https:// server URL."
        case .invalidHandle: "Invalid handle: \(reason). Check the spelling of the handle."
        case .invalidDID: "Invalid DID: \(reason). Check the DID, or sign in with the handle instead."
        case .handleResolutionFailed: "Could not resolve the handle: \(reason). Check the handle and try again."
        case .conflictingHandleRecords, .handleMethodsDisagree:
            "The handle's records disagree: \(reason). Ask the handle's owner to fix its DNS or HTTPS record."
        case .didResolutionFailed: "Could not fetch the DID document: \(reason). Try again later."
        case .invalidDIDDocument:
            "The DID document failed a check: \(reason). The account's identity cannot be trusted; nothing was stored."
        case .handleNotConfirmed:
            "The handle and the DID do not confirm each other: \(reason). The account's identity cannot be trusted."
        case .unsafeDestination: "Refused to connect: \(reason)."
        case .redirectRefused: "Refused a redirect: \(reason). Identity and metadata requests never follow redirects."
        case .unexpectedStatus: "The server gave an unexpected answer: \(reason). Try again later."
        case .unexpectedContentType: "The server did not answer with JSON: \(reason)."
        case .responseTooLarge: "The server's answer is too large: \(reason)."
        case .networkFailure: "A network request failed: \(reason). Check the connection and try again."
        case .invalidProtectedResourceMetadata:
            "The server's protected resource metadata failed a check: \(reason). Sign-in stopped; nothing was stored."
        case .invalidAuthorizationServerMetadata:
            "The authorization server's metadata failed a check: \(reason). Sign-in stopped; nothing was stored."
        default: signInSummary
        }
    }

    /// Replaces control characters and shortens text that came from the user or a server, so it prints safely.
    static func printable(_ text: String, limit: Int = 300) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }
            )
        )
        return cleaned.count <= limit ? cleaned : String(cleaned.prefix(limit)) + "…"
    }
}

extension OAuthError {
    /// What the user typed is neither a handle, a DID nor an https server URL (ATPROTO-OAUTH §1.1).
    public static func invalidInput(_ reason: String) -> OAuthError {
        OAuthError(.invalidInput, .usage, reason)
    }

    /// A handle breaks the syntax rules or uses a disallowed top-level domain (atproto.com/specs/handle).
    public static func invalidHandle(_ reason: String) -> OAuthError {
        OAuthError(.invalidHandle, .usage, reason)
    }

    /// A DID breaks the syntax rules or uses a method this client does not resolve (atproto.com/specs/did).
    public static func invalidDID(_ reason: String) -> OAuthError {
        OAuthError(.invalidDID, .usage, reason)
    }

    /// Neither DNS nor HTTPS (nor the configured service) gave a DID for the handle (ATPROTO-OAUTH §1.2).
    public static func handleResolutionFailed(
        _ reason: String,
        status: Int? = nil,
        serverError: ServerCode? = nil,
        serverErrorDescription: String? = nil
    ) -> OAuthError {
        OAuthError(
            .handleResolutionFailed,
            .failed,
            reason,
            status: status,
            serverError: serverError,
            serverErrorDescription: serverErrorDescription
        )
    }

    /// The handle's DNS TXT records name several different DIDs (ATPROTO-OAUTH §1.2).
    public static func conflictingHandleRecords(_ reason: String) -> OAuthError {
        OAuthError(.conflictingHandleRecords, .securityCheckFailed, reason)
    }

    /// DNS and HTTPS resolution of a handle gave different DIDs (ATPROTO-OAUTH §1.2).
    public static func handleMethodsDisagree(_ reason: String) -> OAuthError {
        OAuthError(.handleMethodsDisagree, .securityCheckFailed, reason)
    }

    /// The DID document could not be fetched or read (ATPROTO-OAUTH §1.3).
    public static func didResolutionFailed(_ reason: String, status: Int? = nil) -> OAuthError {
        OAuthError(.didResolutionFailed, .failed, reason, status: status)
    }

    /// The DID document failed a check: its `id`, its PDS service or the PDS URL (ATPROTO-OAUTH §1.3).
    public static func invalidDIDDocument(_ reason: String, field: String? = nil) -> OAuthError {
        OAuthError(.invalidDIDDocument, .securityCheckFailed, reason, field: field)
    }

    /// The bidirectional handle check failed: the document's handle and the DID do not point at each other.
    public static func handleNotConfirmed(_ reason: String) -> OAuthError {
        OAuthError(.handleNotConfirmed, .securityCheckFailed, reason, field: "alsoKnownAs")
    }

    /// A URL was refused before any request: its scheme, or a host that is or resolves to a non-public address.
    public static func unsafeDestination(_ reason: String) -> OAuthError {
        OAuthError(.unsafeDestination, .securityCheckFailed, reason)
    }

    /// The server answered with a redirect, which identity and metadata fetches never follow.
    public static func redirectRefused(url: URL, status: Int, location: String?) -> OAuthError {
        let target = location.map { "to \($0)" } ?? "without a Location"
        return OAuthError(.redirectRefused, .securityCheckFailed, "\(url) redirected \(target)", status: status)
    }

    /// The server answered with a status other than the one the spec requires.
    public static func unexpectedStatus(
        url: URL,
        status: Int,
        expected: String,
        serverError: ServerCode? = nil,
        serverErrorDescription: String? = nil
    ) -> OAuthError {
        OAuthError(
            .unexpectedStatus,
            .failed,
            "\(url) answered HTTP \(status), expected \(expected)",
            status: status,
            serverError: serverError,
            serverErrorDescription: serverErrorDescription
        )
    }

    /// The server's answer is not JSON where the spec requires JSON.
    public static func unexpectedContentType(url: URL, contentType: String?) -> OAuthError {
        let type = contentType.map { "“\($0)”" } ?? "no Content-Type"
        return OAuthError(.unexpectedContentType, .failed, "\(url) answered with \(type)")
    }

    /// The server's answer is larger than the fetcher accepts.
    public static func responseTooLarge(url: URL, limit: Int) -> OAuthError {
        OAuthError(.responseTooLarge, .failed, "\(url) sent more than \(limit) bytes")
    }

    /// The request could not be sent or its answer not read (DNS, connection, timeout).
    public static func networkFailure(_ reason: String) -> OAuthError {
        OAuthError(.networkFailure, .failed, reason)
    }

    /// The protected resource metadata failed a check (ATPROTO-OAUTH §1.4, RFC 9728 §3); `field` names it.
    public static func invalidProtectedResourceMetadata(_ reason: String, field: String? = nil) -> OAuthError {
        OAuthError(.invalidProtectedResourceMetadata, .securityCheckFailed, reason, field: field)
    }

    /// The authorization server metadata failed a check (ATPROTO-OAUTH §1.5, RFC 8414 §3); `field` names it.
    public static func invalidAuthorizationServerMetadata(_ reason: String, field: String? = nil) -> OAuthError {
        OAuthError(.invalidAuthorizationServerMetadata, .securityCheckFailed, reason, field: field)
    }
}
