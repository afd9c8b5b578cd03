public import Crypto
import Foundation
import WireFormat

/// The public half of an ES256 key as a JSON Web Key (RFC 7517, RFC 7518 §6.2.1).
public struct ECPublicJWK: Sendable, Hashable, Codable {
    /// The key type; always `EC`.
    public var kty: String
    /// The curve; always `P-256` here.
    public var crv: String
    /// The x coordinate, base64url.
    public var x: String
    /// The y coordinate, base64url.
    public var y: String

    /// Creates a JWK from its members.
    public init(kty: String = "EC", crv: String = "P-256", x: String, y: String) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
    }

    /// Creates the JWK of a P-256 public key.
    public init(_ key: P256.Signing.PublicKey) {
        let raw = key.rawRepresentation
        self.init(x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)))
    }

    /// The RFC 7638 SHA-256 thumbprint, the value of `cnf.jkt` and `dpop_jkt`.
    public var thumbprint: String {
        JWKThumbprint.sha256(requiredMembers: ["crv": crv, "kty": kty, "x": x, "y": y])
    }

    /// The JWK as compact JSON with members in a fixed order, as it appears in a proof header.
    func appendJSON(to output: inout [UInt8]) {
        JSONString.appendObject([("kty", kty), ("crv", crv), ("x", x), ("y", y)], to: &output)
    }
}
