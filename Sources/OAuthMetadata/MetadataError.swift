public import Failures
import WireFormat

/// A document or key that cannot be used: a client metadata document, a server's metadata that failed a check
/// (RFC 8414 §3, RFC 9728 §3; atproto.com/specs/oauth, Clients and Authorization Servers), or a client key.
///
/// A sign-in turns it into a `MetadataError` of the same code. It never carries a key or a secret.
public struct MetadataError: CategorizedError, Hashable {
    /// Which failure a ``MetadataError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .invalidClientMetadata`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// A client metadata document's member breaks a rule (atproto.com/specs/oauth, Clients).
        case invalidClientMetadata
        /// The protected resource metadata failed a check (RFC 9728 §3; atproto.com/specs/oauth, Authorization
        /// Servers).
        case invalidProtectedResourceMetadata
        /// The authorization server metadata failed a check (RFC 8414 §3; atproto.com/specs/oauth, Authorization
        /// Servers).
        case invalidAuthorizationServerMetadata
        /// A client key, or a change to the client key set, that cannot be used.
        case invalidInput
        /// The store's client key set cannot be read (atproto.com/specs/oauth, Client Authentication).
        case storedKeyUnreadable
    }

    /// Which failure this is, whatever its details: `error.code == .invalidClientMetadata`.
    public let code: Code
    /// `usage` for a client document or key that cannot be used; `securityCheckFailed` for a server's metadata
    /// that failed a check; `signInNeeded` for a client key set the store cannot read.
    public let category: FailureCategory
    /// What went wrong, in words; names the failed check and never contains a key.
    public let reason: String
    /// The document member whose check failed, such as `issuer` or `redirect_uris`, when there is one.
    public let field: String?

    init(_ code: Code, _ category: FailureCategory, _ reason: String, field: String? = nil) {
        self.code = code
        self.category = category
        self.reason = TerminalText.sanitized(reason)
        self.field = field
    }

    /// A sentence or two for people: what happened and what to do.
    public var description: String {
        switch code {
        case .invalidClientMetadata: "The client configuration is invalid: \(reason). Fix the client metadata."
        case .invalidProtectedResourceMetadata:
            "The server's protected resource metadata failed a check: \(reason). Sign-in stopped; nothing was stored."
        case .invalidAuthorizationServerMetadata:
            "The authorization server's metadata failed a check: \(reason). Sign-in stopped; nothing was stored."
        case .invalidInput: reason
        case .storedKeyUnreadable: "Sign-in needed: \(reason)."
        }
    }

    /// The caller's input for a client document or key; this machine for a key set it cannot read; the servers for
    /// their metadata.
    public var origin: FailureOrigin {
        switch code {
        case .invalidClientMetadata, .invalidInput: .input
        case .storedKeyUnreadable: .machine
        case .invalidProtectedResourceMetadata, .invalidAuthorizationServerMetadata: .upstream
        }
    }

    /// Sign in again when the store cannot read the client key set.
    public var remedy: Remedy {
        category == .signInNeeded ? .signInAgain(account: nil, scope: nil, orSwitch: false) : .none
    }
}

extension MetadataError {
    /// A client metadata document's member breaks a rule (atproto.com/specs/oauth, Clients); `field` names it.
    public static func invalidClientMetadata(field: String, reason: String) -> MetadataError {
        MetadataError(.invalidClientMetadata, .usage, "\(field): \(reason)", field: field)
    }

    /// The protected resource metadata failed a check (RFC 9728 §3; atproto.com/specs/oauth, Authorization
    /// Servers); `field` names it.
    public static func invalidProtectedResourceMetadata(_ reason: String, field: String? = nil) -> MetadataError {
        MetadataError(.invalidProtectedResourceMetadata, .securityCheckFailed, reason, field: field)
    }

    /// The authorization server metadata failed a check (RFC 8414 §3; atproto.com/specs/oauth, Authorization
    /// Servers); `field` names it.
    public static func invalidAuthorizationServerMetadata(_ reason: String, field: String? = nil) -> MetadataError {
        MetadataError(.invalidAuthorizationServerMetadata, .securityCheckFailed, reason, field: field)
    }

    /// A client key, or a change to the client key set, that cannot be used; `reason` is whole sentences.
    public static func invalidInput(_ reason: String) -> MetadataError {
        MetadataError(.invalidInput, .usage, reason)
    }

    /// The store's client key set cannot be read (atproto.com/specs/oauth, Client Authentication).
    public static func storedKeyUnreadable(_ reason: String) -> MetadataError {
        MetadataError(.storedKeyUnreadable, .signInNeeded, reason)
    }
}
