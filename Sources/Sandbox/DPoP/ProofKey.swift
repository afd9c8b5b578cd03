import Crypto
import Foundation
import WireFormat

/// The public key of a DPoP proof's `jwk` header, as the server reads it: a P-256 key (RFC 7518 §6.2.1) and its
/// RFC 7638 thumbprint, which `cnf.jkt` and `dpop_jkt` name.
struct ProofKey {
    /// The key that must verify the proof's signature.
    let publicKey: P256.Signing.PublicKey
    /// The base64url SHA-256 of the key's required members in lexicographic order (RFC 7638 §3.2, §3.3).
    let thumbprint: String

    /// Reads `jwk`; throws when it is not an EC P-256 public key.
    init(jwk: [String: Any]) throws(DPoPProofVerifier.Failure) {
        guard jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256" else {
            throw .invalid("jwk is not an EC P-256 key")
        }
        guard let x = jwk["x"] as? String, let y = jwk["y"] as? String,
            let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y),
            xBytes.count == 32, yBytes.count == 32,
            let key = try? P256.Signing.PublicKey(x963Representation: Data([0x04]) + xBytes + yBytes)
        else { throw .invalid("jwk lacks a valid x or y") }
        publicKey = key
        // RFC 7638 §3.2: the required members only, in order, no white space; x and y as received.
        let members = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        thumbprint = Base64URL.encode(SHA256.hash(data: Data(members.utf8)))
    }
}
