import ATProtoSyntax
public import Failures
import Foundation
import WireFormat

/// A failure to turn what the user typed into a trusted identity: a handle that does not resolve, records that
/// disagree, a DID document that fails a check (atproto.com/specs/handle, /did, /oauth "Identity Authentication").
///
/// Fetch refusals (``HTTPTransport/FetchError``) and syntax errors (``ATProtoSyntax/SyntaxError``) pass through
/// unchanged. The error never carries a token.
public struct IdentityError: CategorizedError, Hashable {
    /// Which failure an ``IdentityError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .invalidInput`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// What the user typed is neither a handle, a DID nor an https server URL.
        case invalidInput
        /// Neither DNS nor HTTPS (nor the configured service) gave a DID for the handle (atproto.com/specs/handle).
        case handleResolutionFailed
        /// The handle's DNS TXT records name several different DIDs.
        case conflictingHandleRecords
        /// DNS and HTTPS resolution of a handle gave different DIDs.
        case handleMethodsDisagree
        /// The DID document could not be fetched or read (atproto.com/specs/did).
        case didResolutionFailed
        /// The DID document failed a check: its `id`, its PDS service or the PDS URL.
        case invalidDIDDocument
        /// The bidirectional handle check failed: the document's handle and the DID do not point at each other.
        case handleNotConfirmed
    }

    /// Which failure this is, whatever its details: `error.code == .invalidInput`.
    public let code: Code
    /// What went wrong, in words, safe to print.
    public let reason: String
    /// The document member whose check failed, such as `id` or `alsoKnownAs`, when there is one.
    public let field: String?
    /// The HTTP status of the answer that caused the error, when there was one.
    public let status: Int?
    /// The server's `error` code, when its answer had one.
    public let serverError: String?
    /// The server's `error_description` or `message`, safe to print, when its answer had one.
    public let serverErrorDescription: String?
    /// Whether no answer came (DNS, connection, timeout): then ``reason`` already says what to do.
    package let isNetworkFailure: Bool
    /// The handle or DID that could not be resolved, when the error is about one.
    public let subject: String?

    init(
        _ code: Code,
        _ reason: String,
        field: String? = nil,
        status: Int? = nil,
        serverError: String? = nil,
        serverErrorDescription: String? = nil,
        isNetworkFailure: Bool = false,
        subject: String? = nil
    ) {
        self.code = code
        self.isNetworkFailure = isNetworkFailure
        self.subject = subject.map { TerminalText.sanitized($0, limit: 300) }
        self.reason = TerminalText.sanitized(reason)
        self.field = field
        self.status = status
        self.serverError = serverError.map { TerminalText.sanitized($0, limit: 80) }
        self.serverErrorDescription = serverErrorDescription.map { TerminalText.sanitized($0) }
    }

    /// Whether both errors are the same failure, ignoring the details.
    ///
    /// Kept for callers written before codes; compare codes instead, `error.code == .handleNotConfirmed`.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func hasSameCode(as other: IdentityError) -> Bool { code == other.code }

    /// A sentence or two for people: what happened and what to do.
    public var description: String {
        let text =
            switch code {
            case .invalidInput:
                "Cannot use this account: \(reason). Give a handle (alice.example.com), a DID or an https:// server URL."
            case .handleResolutionFailed: "Could not resolve the handle\(subjectText): \(reason)"
            case .conflictingHandleRecords, .handleMethodsDisagree:
                "The handle's records disagree: \(reason). Ask the handle's owner to fix its DNS or HTTPS record."
            case .didResolutionFailed:
                "Could not fetch the DID document\(subjectText.isEmpty ? "" : " of" + subjectText): \(reason)"
            case .invalidDIDDocument:
                "The DID document failed a check: \(reason). The account's identity cannot be trusted; nothing was stored."
            case .handleNotConfirmed:
                "The handle and the DID do not confirm each other: \(reason). The account's identity cannot be trusted."
            }
        return Sentence.ended(text) + ServerErrorBody.sentence(error: serverError, description: serverErrorDescription)
            + advice
    }

    private var subjectText: String { subject.map { " " + $0 } ?? "" }

    /// What to do about a failed resolution, by its cause: a network failure's reason says it already; a server's
    /// 5xx or 429 passes; anything else means the handle or DID is wrong (atproto.com/specs/handle, /did).
    private var advice: String {
        guard code == .handleResolutionFailed || code == .didResolutionFailed, !isNetworkFailure else { return "" }
        if let trouble = ServerTrouble.advice(forStatus: status) { return " " + trouble }
        return code == .handleResolutionFailed
            ? " Check the handle's spelling, or sign in with the account's DID or its PDS's https:// URL."
            : " Check the DID, or sign in with the account's handle."
    }
}

extension IdentityError {
    /// What the user typed is neither a handle, a DID nor an https server URL.
    public static func invalidInput(_ reason: String) -> IdentityError {
        IdentityError(.invalidInput, reason)
    }

    /// Neither DNS nor HTTPS (nor the configured service) gave a DID for the handle (atproto.com/specs/handle).
    public static func handleResolutionFailed(
        _ reason: String,
        status: Int? = nil,
        serverError: String? = nil,
        serverErrorDescription: String? = nil,
        isNetworkFailure: Bool = false,
        handle: String? = nil
    ) -> IdentityError {
        IdentityError(
            .handleResolutionFailed,
            reason,
            status: status,
            serverError: serverError,
            serverErrorDescription: serverErrorDescription,
            isNetworkFailure: isNetworkFailure,
            subject: handle
        )
    }

    /// The handle's DNS TXT records name several different DIDs.
    public static func conflictingHandleRecords(_ reason: String) -> IdentityError {
        IdentityError(.conflictingHandleRecords, reason)
    }

    /// DNS and HTTPS resolution of a handle gave different DIDs.
    public static func handleMethodsDisagree(_ reason: String) -> IdentityError {
        IdentityError(.handleMethodsDisagree, reason)
    }

    /// The DID document could not be fetched or read (atproto.com/specs/did).
    public static func didResolutionFailed(
        _ reason: String,
        status: Int? = nil,
        isNetworkFailure: Bool = false,
        did: String? = nil
    ) -> IdentityError {
        IdentityError(
            .didResolutionFailed,
            reason,
            status: status,
            isNetworkFailure: isNetworkFailure,
            subject: did
        )
    }

    /// The DID document failed a check: its `id`, its PDS service or the PDS URL.
    public static func invalidDIDDocument(_ reason: String, field: String? = nil) -> IdentityError {
        IdentityError(.invalidDIDDocument, reason, field: field)
    }

    /// The bidirectional handle check failed: the document's handle and the DID do not point at each other.
    public static func handleNotConfirmed(_ reason: String) -> IdentityError {
        IdentityError(.handleNotConfirmed, reason, field: "alsoKnownAs")
    }
}

extension IdentityError {
    /// `securityCheckFailed` when records disagree or the DID document cannot be trusted; `failed` when the
    /// identity could not be resolved now (network, server); `usage` for input that cannot be used.
    public var category: FailureCategory {
        switch code {
        case .invalidInput: .usage
        case .handleResolutionFailed, .didResolutionFailed: .failed
        case .conflictingHandleRecords, .handleMethodsDisagree, .invalidDIDDocument, .handleNotConfirmed:
            .securityCheckFailed
        }
    }

    /// Where the failure lies: the caller's input for what is no handle or DID; otherwise the resolvers and
    /// what they answered.
    public var origin: FailureOrigin {
        switch code {
        case .invalidInput: .input
        case .handleResolutionFailed, .conflictingHandleRecords, .handleMethodsDisagree, .didResolutionFailed,
            .invalidDIDDocument, .handleNotConfirmed:
            .upstream
        }
    }
}
