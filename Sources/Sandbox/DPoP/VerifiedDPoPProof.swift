package import Foundation

/// A proof whose signature and claims passed ``DPoPProofVerifier``.
package struct VerifiedDPoPProof: Sendable, Hashable {
    /// The proof's unique identifier, for replay detection.
    package var jti: String
    /// The HTTP method claim.
    package var htm: String
    /// The target URI claim.
    package var htu: String
    /// The creation time claim.
    package var issuedAt: Date
    /// The server nonce the proof carries, if any.
    package var nonce: String?
    /// The access-token hash, if any.
    package var ath: String?
    /// The RFC 7638 thumbprint of the proof's key, to compare with `cnf.jkt`.
    package var thumbprint: String
}
