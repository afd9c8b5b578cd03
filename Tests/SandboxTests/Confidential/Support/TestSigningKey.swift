import Crypto
import Foundation
import WireFormat

/// A confidential client's ES256 key for the tests, with its `kid`; it signs client assertions made here, with
/// swift-crypto directly, apart from both the client's and the sandbox's JWT code (RFC 7515 §3.1, RFC 7518 §3.4).
struct TestSigningKey: Sendable {
    let kid: String
    let privateKey: P256.Signing.PrivateKey

    init(kid: String) {
        self.kid = kid
        privateKey = P256.Signing.PrivateKey()
    }

    /// The `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2).
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// The public key as a JWK (RFC 7518 §6.2.1), as a client metadata document's `jwks` lists it.
    var publicJWK: [String: String] {
        let point = privateKey.publicKey.x963Representation
        return [
            "kty": "EC", "crv": "P-256", "kid": kid, "alg": "ES256", "use": "sig",
            "x": Base64URL.encode(point.dropFirst().prefix(32)), "y": Base64URL.encode(point.suffix(32)),
        ]
    }

    /// A JWK Set of `keys`: `{"keys": [...]}`.
    static func jwks(_ keys: [TestSigningKey]) -> [String: Any] {
        ["keys": keys.map(\.publicJWK)]
    }

    /// A client assertion (RFC 7523 §3): header `{alg: ES256, kid, typ: JWT}`, claims `iss` = `sub` = `clientID`,
    /// `aud`, `jti`, `iat` and `exp`; `edit` changes the header and claims before they are signed.
    func assertion(
        clientID: String,
        audience: String,
        issuedAt: Date,
        lifetime: TimeInterval = 60,
        jti: String = Base64URL.encode(SystemRandomNumberGenerator.bytes(16)),
        edit: (inout [String: Any], inout [String: Any]) -> Void = { _, _ in }
    ) throws -> String {
        var header: [String: Any] = ["alg": "ES256", "kid": kid, "typ": "JWT"]
        let issued = Int(issuedAt.timeIntervalSince1970.rounded(.down))
        var claims: [String: Any] = [
            "iss": clientID, "sub": clientID, "aud": audience, "jti": jti, "iat": issued,
            "exp": issued + Int(lifetime),
        ]
        edit(&header, &claims)
        return try sign(header: header, claims: claims)
    }

    /// A compact JWS of `header` and `claims`, signed with this key (ES256: the raw 64-byte R‖S signature).
    func sign(header: [String: Any], claims: [String: Any]) throws -> String {
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: options)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: options))
        let signature = try privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
