import Crypto
import Foundation
import HTTPTransport
import WireFormat

extension DocumentCheck {
    /// A confidential client's signing algorithm and keys: ES256, and exactly one of `jwks` and `jwks_uri`.
    ///
    /// Any document's `jwks` is checked for private keys, which must never be published.
    mutating func checkKeys(confidential: Bool) {
        if confidential {
            let field = "token_endpoint_auth_signing_alg"
            let rule = CheckRule.signingAlgorithm
            switch members[field] {
            case .string("ES256")?:
                break
            case nil:
                report(field, "it is missing; a confidential client signs its assertions with ES256", rule)
            case let value?:
                let shown = value.string.map(Self.quoted) ?? value.summary
                report(field, "it is \(shown); a confidential client signs its assertions with ES256", rule)
            }
            switch (members["jwks"], members["jwks_uri"]) {
            case (nil, nil):
                report(
                    "jwks",
                    "a confidential client publishes its public keys in jwks or at jwks_uri; there is neither",
                    CheckRule.keys
                )
            case (.some, .some):
                report("jwks", "give jwks or jwks_uri, not both", CheckRule.keys)
            default:
                break
            }
            if members["jwks_uri"] != nil { checkKeySetURI() }
        }
        if let keys = members["jwks"] { checkKeySet(keys, confidential: confidential) }
    }

    private mutating func checkKeySetURI() {
        guard let text = string("jwks_uri", rule: CheckRule.keys) else { return }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, URL(string: text)?.hasUsablePort == true
        else {
            report("jwks_uri", "\(Self.quoted(text)) is not a URL with a host", CheckRule.keys)
            return
        }
        let development = isDevelopmentClient && scheme == "http" && ClientMetadata.isLoopbackIP(host)
        if scheme != "https", !development { report("jwks_uri", "it must be an https URL", CheckRule.keys) }
        // The document is public: a password in it is published, and a fetch refuses the URL anyway.
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            report("jwks_uri", "it has user info (user@); a public document carries no credentials", CheckRule.keys)
        }
        if components.percentEncodedFragment != nil {
            report("jwks_uri", "it has a fragment; the key set is the whole document at the URL", CheckRule.keys)
        }
    }

    /// Checks a JWK Set, the document's `jwks` or what its `jwks_uri` serves, reporting its problems under `field`.
    mutating func checkKeySet(_ value: DocumentValue, confidential: Bool, field: String = "jwks") {
        guard case .object(let set) = value, case .array(let keys)? = set["keys"] else {
            report(field, "it must be a JWK Set: an object whose member keys is an array", CheckRule.keySet)
            return
        }
        if confidential, keys.isEmpty { report(field, "it holds no key", CheckRule.keys) }
        var keyIDs: [String] = []
        for (index, key) in keys.enumerated() {
            if let keyID = checkKey(key, label: "key \(index + 1)", confidential: confidential, field: field) {
                keyIDs.append(keyID)
            }
        }
        for keyID in Self.repeated(keyIDs) {
            report(
                field,
                "the kid \(Self.quoted(keyID)) names several keys; each key needs its own",
                CheckRule.uniqueKeyIDs
            )
        }
    }

    /// Checks one key and returns its `kid`.
    ///
    /// Private members are named, never quoted.
    private mutating func checkKey(
        _ value: DocumentValue,
        label: String,
        confidential: Bool,
        field: String
    ) -> String? {
        guard case .object(let key) = value else {
            report(field, "\(label) is \(value.summary), not a JSON Web Key", CheckRule.keySet)
            return nil
        }
        let keyID = key["kid"]?.string
        let name = keyID.map { "\(label) (kid \(Self.quoted($0)))" } ?? label
        let secret = ClientKey.privateMembers.filter { key[$0] != nil }
        if !secret.isEmpty {
            report(
                field,
                "\(name) publishes private key material (\(secret.joined(separator: ", "))): anyone who has read this "
                    + "document can sign as the client. Treat the key as leaked: take it out of service, make a new "
                    + "one, and publish only public keys",
                CheckRule.privateKey
            )
        }
        guard confidential else { return keyID }
        if keyID?.isEmpty != false {
            report(field, "\(name) has no kid; sessions are bound to a key by its kid", CheckRule.keyID)
        }
        let type = key["kty"]?.string
        let curve = key["crv"]?.string
        if type != "EC" || curve != "P-256" {
            report(
                field,
                "\(name) is kty \(type.map(Self.quoted) ?? "missing"), crv \(curve.map(Self.quoted) ?? "missing"); "
                    + "an ES256 key is kty EC, crv P-256",
                CheckRule.keyMembers
            )
        } else if let x = key["x"]?.string, let y = key["y"]?.string {
            if !Self.isPoint(x: x, y: y) {
                report(field, "\(name): x and y are not a point of P-256", CheckRule.keyMembers)
            }
        } else {
            report(field, "\(name) lacks x or y, the public key's coordinates", CheckRule.keyMembers)
        }
        if let algorithm = key["alg"], algorithm.string != "ES256" {
            let shown = algorithm.string.map(Self.quoted) ?? algorithm.summary
            report(field, "\(name) has alg \(shown); a client assertion key is ES256", CheckRule.keyMembers)
        }
        if let use = key["use"], use.string != "sig" {
            let shown = use.string.map(Self.quoted) ?? use.summary
            report(field, "\(name) has use \(shown); a signing key has use sig", CheckRule.keyMembers)
        }
        return keyID
    }

    /// Whether base64url `x` and `y` are the coordinates of a point of P-256 (RFC 7518 §6.2.1.2, §6.2.1.3).
    static func isPoint(x: String, y: String) -> Bool {
        guard let x = Base64URL.decode(x), let y = Base64URL.decode(y), x.count == 32, y.count == 32 else {
            return false
        }
        return (try? P256.Signing.PublicKey(rawRepresentation: x + y)) != nil
    }
}
