import Crypto
import Foundation

/// A confidential client's public keys that can verify an ES256 client assertion, by `kid`: read from a JWK Set
/// (RFC 7517 §5) given inline as the document's `jwks` or served at its `jwks_uri`.
///
/// Every key must have a `kid` (atproto.com/specs/oauth, Client Authentication: sessions are bound to it), no two the
/// same, and none may hold a private part. EC P-256 keys whose `alg` (if any) is ES256 and `use` (if any) is `sig`
/// are kept; other keys are skipped, but at least one must be kept.
struct ClientKeySet: Sendable, Hashable {
    /// The keys kept, by `kid`.
    var keys: [String: ClientPublicKey]

    /// Reads a JWK Set document, such as the one served at a `jwks_uri`; `source` names it in refusals.
    init(document: Data, source: String) throws(ClientResolver.Refusal) {
        guard let object = JSONBody.decodeObject(document) else {
            throw ClientResolver.Refusal(reason: "the JWKS at \(source) is not a JSON object")
        }
        try self.init(jwks: object, source: source)
    }

    /// Reads a JWK Set object `{"keys": […]}`; `source` names it in refusals.
    init(jwks: [String: Any], source: String) throws(ClientResolver.Refusal) {
        typealias Refusal = ClientResolver.Refusal
        guard let entries = jwks["keys"] as? [Any], !entries.isEmpty else {
            throw Refusal(reason: "the JWKS of \(source) must have a non-empty keys array")
        }
        var keys: [String: ClientPublicKey] = [:]
        var keyIDs: Set<String> = []
        for entry in entries {
            guard let jwk = entry as? [String: Any] else {
                throw Refusal(reason: "every key in the JWKS of \(source) must be a JSON object")
            }
            guard let keyID = jwk["kid"] as? String, !keyID.isEmpty else {
                throw Refusal(reason: "every key in the JWKS of \(source) must have a kid")
            }
            guard keyIDs.insert(keyID).inserted else {
                throw Refusal(reason: "the JWKS of \(source) has two keys with kid \(keyID)")
            }
            guard jwk["d"] == nil else {
                throw Refusal(
                    reason: "key \(keyID) in the JWKS of \(source) holds a private key (d): publish it without"
                )
            }
            if let key = try ClientPublicKey(jwk: jwk, keyID: keyID, source: source) {
                keys[keyID] = key
            }
        }
        guard !keys.isEmpty else {
            throw Refusal(reason: "the JWKS of \(source) has no EC P-256 signing key for ES256")
        }
        self.keys = keys
    }

    /// The `kid`s of the keys kept, sorted, for messages.
    var keyIDs: [String] { keys.keys.sorted() }

    /// Whether the key a session is bound to is still here: the same `kid`, with the same key.
    func contains(_ binding: ClientKeyBinding) -> Bool {
        keys[binding.keyID]?.thumbprint == binding.thumbprint
    }
}

/// One ES256 verification key of a confidential client.
struct ClientPublicKey: Sendable, Hashable {
    /// The key's `kid`.
    var keyID: String
    /// The key's RFC 7638 thumbprint.
    var thumbprint: String
    /// The uncompressed point (ANSI X9.63), from which the verifying key is made.
    var x963Representation: Data

    /// Reads an EC P-256 key; `nil` for a key of another type, curve, `alg` or `use`, which cannot verify an ES256
    /// assertion; throws for an EC P-256 key whose `x` or `y` is not a point of the curve.
    init?(jwk: [String: Any], keyID: String, source: String) throws(ClientResolver.Refusal) {
        guard jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256" else { return nil }
        if let algorithm = jwk["alg"], algorithm as? String != "ES256" { return nil }
        if let use = jwk["use"], use as? String != "sig" { return nil }
        let key: ProofKey
        do {
            key = try ProofKey(jwk: jwk)
        } catch {
            throw ClientResolver.Refusal(reason: "key \(keyID) in the JWKS of \(source): \(error.reason)")
        }
        self.keyID = keyID
        thumbprint = key.thumbprint
        x963Representation = key.publicKey.x963Representation
    }

    /// The key that verifies signatures.
    var publicKey: P256.Signing.PublicKey? {
        try? P256.Signing.PublicKey(x963Representation: x963Representation)
    }

    /// The binding of a session to this key.
    var binding: ClientKeyBinding {
        ClientKeyBinding(keyID: keyID, thumbprint: thumbprint)
    }
}

/// The key a confidential client's session is bound to: the `kid` of the client assertion at the code exchange and
/// the thumbprint of the key it named, as the reference server binds `kid`, `alg` and the key's thumbprint
/// (@atproto/oauth-provider); the algorithm is always ES256 here.
struct ClientKeyBinding: Sendable, Hashable {
    /// The key's `kid`.
    var keyID: String
    /// The key's RFC 7638 thumbprint.
    var thumbprint: String
}
