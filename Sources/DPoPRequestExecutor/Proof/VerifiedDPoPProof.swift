public import Foundation

/// A proof whose signature and claims passed ``DPoPProofVerifier``.
public struct VerifiedDPoPProof: Sendable, Hashable {
    /// The proof's unique identifier, for replay detection.
    public var jti: String
    /// The HTTP method claim.
    public var htm: String
    /// The target URI claim.
    public var htu: String
    /// The creation time claim.
    public var issuedAt: Date
    /// The server nonce the proof carries, if any.
    public var nonce: String?
    /// The access-token hash, if any.
    public var ath: String?
    /// The public key from the header.
    public var jwk: ECPublicJWK
    /// The key's RFC 7638 thumbprint, to compare with `cnf.jkt`.
    public var thumbprint: String
}
