import Crypto
public import Foundation
public import WireFormat

/// A client assertion: a JWT signed with the client's key that authenticates one request to the authorization
/// server (RFC 7523 §2.2 and §3; RFC 7521 §4.2; atproto.com/specs/oauth, Client Authentication).
///
/// A new one is made for every request, a DPoP nonce retry included, so that a server remembering `jti`s never sees
/// one twice.
public enum ClientAssertion {
    /// The `client_assertion_type` sent beside it (RFC 7523 §2.2).
    public static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long an assertion is valid, in seconds: `exp` is this long after `iat`.
    public static let lifetime: TimeInterval = 60

    /// Signs an assertion: header `{alg: ES256, kid, typ: JWT}`, claims `iss` = `sub` = the client ID, `aud` = the
    /// authorization server's issuer, a random `jti`, `iat` and `exp`.
    public static func make(
        key: ClientKey,
        clientID: String,
        audience: String,
        issuedAt: Date,
        random: any RandomSource = .system
    ) throws -> String {
        let header: [String: Any] = ["alg": "ES256", "kid": key.keyID, "typ": "JWT"]
        let issued = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let claims: [String: Any] = [
            "iss": clientID, "sub": clientID, "aud": audience, "jti": Base64URL.encode(random.bytes(count: 16)),
            "iat": issued, "exp": issued + Int64(lifetime),
        ]
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: options)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: options))
        let signature = try key.privateKey.signature(for: SHA256.hash(data: Data(signingInput.utf8)))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
