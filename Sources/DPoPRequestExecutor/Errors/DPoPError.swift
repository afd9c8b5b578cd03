public import Failures

/// A DPoP failure of the client: an unusable key, a URL no proof can name, or a nonce challenge the client cannot
/// satisfy (RFC 9449 §8).
public struct DPoPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which failure a ``DPoPError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .invalidKey`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// A stored or supplied key cannot be used.
        case invalidKey
        /// The request URL cannot be a proof's `htu` (no scheme or host).
        case invalidTarget
        /// The server asked for a new nonce twice in a row; the client does not loop (RFC 9449 §8).
        case repeatedNonceChallenge
        /// The server asked for a nonce but sent no `DPoP-Nonce` header.
        case challengeWithoutNonce
    }

    /// Which failure this is, whatever its details: `error.code == .invalidKey`.
    public let code: Code
    /// What went wrong, in words; never contains a token, proof or key.
    public let reason: String
    /// The HTTP status of the answer that caused the error, when there was one.
    public let status: Int?

    private init(_ code: Code, _ reason: String, status: Int? = nil) {
        self.code = code
        self.reason = reason
        self.status = status
    }

    /// A stored or supplied key cannot be used.
    public static func invalidKey(_ reason: String) -> DPoPError { DPoPError(.invalidKey, reason) }

    /// The request URL cannot be a proof's `htu` (no scheme or host).
    public static func invalidTarget(_ reason: String) -> DPoPError { DPoPError(.invalidTarget, reason) }

    /// The server asked for a new nonce twice in a row; the client does not loop (RFC 9449 §8).
    public static func repeatedNonceChallenge(status: Int) -> DPoPError {
        DPoPError(
            .repeatedNonceChallenge,
            "the server rejected the DPoP nonce again right after sending a new one",
            status: status
        )
    }

    /// The server asked for a nonce but sent no `DPoP-Nonce` header.
    public static func challengeWithoutNonce(status: Int) -> DPoPError {
        DPoPError(.challengeWithoutNonce, "the server asked for a DPoP nonce but did not send one", status: status)
    }

    /// Whether both errors have the same code, ignoring the reason.
    @available(*, deprecated, message: "Compare codes instead: error.code == .name")
    public func isSameKind(as other: DPoPError) -> Bool { code == other.code }

    /// A sentence for people.
    public var description: String {
        switch code {
        case .invalidKey: "Unusable DPoP key: \(reason). Sign in again to create a new one."
        case .invalidTarget: "Cannot make a DPoP proof for this URL: \(reason)."
        case .repeatedNonceChallenge, .challengeWithoutNonce:
            "DPoP nonce negotiation failed: \(reason) (HTTP \(status ?? 0)). Try again later."
        }
    }
}

extension DPoPError: CategorizedError {
    /// A proof that cannot be made or a nonce exchange that went wrong fails the sender-constraint check
    /// (RFC 9449).
    public var category: FailureCategory { .securityCheckFailed }
}

extension DPoPError {
    /// Where the failure lies: this machine for a stored key that cannot be used; the caller's input for a URL
    /// no proof can name; the server for its nonce challenges.
    public var origin: FailureOrigin {
        switch code {
        case .invalidKey: .machine
        case .invalidTarget: .input
        case .repeatedNonceChallenge, .challengeWithoutNonce: .upstream
        }
    }
}
