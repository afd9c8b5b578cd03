public import Crypto
import DPoPRequestExecutor
public import Foundation
import WireFormat

/// A confidential client's ES256 signing key, named by its `kid` (RFC 7517 §4.5).
///
/// It signs client assertions (atproto.com/specs/oauth, Client Authentication) and is never a DPoP key.
///
/// The private key leaves this type only as ``privateJWK``, for a file written `0600` or a sealed store entry;
/// `description` shows only the `kid`.
public struct ClientKey: Sendable, CustomStringConvertible {
    /// The members of a JWK that only a private key has (RFC 7518 §6.2.2 and §6.3.2, §6.4.1 for `k`): a key set
    /// to publish holds none of them.
    package static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// The key's `kid`, which the authorization server binds sessions to.
    public let keyID: String
    let privateKey: P256.Signing.PrivateKey
    /// The encoded header of this key's client assertions, made once.
    let encodedAssertionHeader: String

    /// Generates a new key whose `kid` is its RFC 7638 thumbprint.
    public init() {
        self.init(privateKey: P256.Signing.PrivateKey())
    }

    /// Wraps a private key; without `keyID`, the `kid` is the RFC 7638 thumbprint of its public key.
    public init(privateKey: P256.Signing.PrivateKey, keyID: String? = nil) {
        self.privateKey = privateKey
        let keyID = keyID ?? ECPublicJWK(privateKey.publicKey).thumbprint
        self.keyID = keyID
        self.encodedAssertionHeader = ClientAssertion.encodedHeader(keyID: keyID)
    }

    /// Reads a key from a file's contents: a private JWK (EC P-256 with `d` and a `kid`) or a PKCS#8 (or SEC 1) PEM
    /// private key, whose `kid` is then its thumbprint.
    ///
    /// - Throws: ``MetadataError`` (usage) naming what is wrong, never quoting the key.
    public init(contents: Data) throws {
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("-----BEGIN") {
            do {
                self.init(privateKey: try P256.Signing.PrivateKey(pemRepresentation: text))
            } catch {
                throw MetadataError.invalidInput(
                    "The client key is not a P-256 private key in PEM (PKCS#8 or SEC 1); ES256 needs one."
                )
            }
            return
        }
        try self.init(jwk: contents)
    }

    /// Reads a private JWK: `kty` EC, `crv` P-256, `d`, `x`, `y` that match it, and a `kid` that
    /// ``isAcceptableKeyID(_:)``.
    public init(jwk: Data) throws {
        try self.init(jwk: jwk, checkingKeyID: true)
    }

    /// Reads a private JWK; `checkingKeyID` false for a key already in the store, which was checked when it came in
    /// (or before there was a rule: such a key stays usable).
    init(jwk: Data, checkingKeyID: Bool) throws {
        guard let object = try? JSONSerialization.jsonObject(with: jwk) as? [String: Any] else {
            throw MetadataError.invalidInput("The client key is neither a JSON Web Key nor a PEM private key.")
        }
        func member(_ name: String) throws -> String {
            guard let value = object[name] as? String, !value.isEmpty else {
                throw MetadataError.invalidInput("The client key's JWK has no “\(name)”; ES256 needs an EC P-256 key.")
            }
            return value
        }
        guard try member("kty") == "EC", try member("crv") == "P-256" else {
            throw MetadataError.invalidInput("The client key must be an EC P-256 key (kty EC, crv P-256) for ES256.")
        }
        let keyID = try member("kid")
        guard !checkingKeyID || Self.isAcceptableKeyID(keyID) else {
            throw MetadataError.invalidInput(Self.keyIDRule)
        }
        guard let scalar = Base64URL.decode(try member("d")), scalar.count == 32,
            let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: scalar)
        else { throw MetadataError.invalidInput("The client key's “d” is not a P-256 private scalar.") }
        let derived = ECPublicJWK(privateKey.publicKey)
        guard try member("x") == derived.x, try member("y") == derived.y else {
            throw MetadataError.invalidInput("The client key's “x” and “y” do not belong to its “d”.")
        }
        self.init(privateKey: privateKey, keyID: keyID)
    }

    /// The longest `kid` taken.
    public static let maximumKeyIDLength = 128

    /// Whether `keyID` may name a client key: 1 to 128 characters of `A`–`Z`, `a`–`z`, `0`–`9` and `.` `_` `~` `:`
    /// `+` `=` `-`.
    ///
    /// RFC 7517 §4.5 leaves a `kid`'s form to the application; this covers what key sets use in practice (RFC 7638
    /// thumbprints in base64url, as `client keygen` makes, UUIDs, dates such as RFC 7517's `2011-04-29`, base64 with
    /// `=` and `+`), while a `kid` atoauth prints, logs and stores can hold no control character, space, line break
    /// or path separator.
    public static func isAcceptableKeyID(_ keyID: String) -> Bool {
        let allowed = Set(".-_~:+=".utf8)
        return (1...maximumKeyIDLength).contains(keyID.utf8.count)
            && keyID.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || allowed.contains(byte)
            }
    }

    /// The rule ``isAcceptableKeyID(_:)`` checks, as a refusal says it.
    static let keyIDRule =
        "The client key's “kid” must be 1 to \(maximumKeyIDLength) characters of A–Z, a–z, 0–9 and . _ ~ : + = - "
        + "(no space, control character or line break); give the key another kid, in the file and in the published "
        + "JWKS."

    /// The public key as a JWK with `kid`, `alg` ES256 and `use` sig, as a client metadata document publishes it.
    public var publicJWK: [String: String] {
        let jwk = ECPublicJWK(privateKey.publicKey)
        return ["kty": jwk.kty, "crv": jwk.crv, "x": jwk.x, "y": jwk.y, "kid": keyID, "alg": "ES256", "use": "sig"]
    }

    /// Whether `keys` publishes this key: a key with its `kid` and its public coordinates.
    public func isPublished(in keys: ClientJWKS) -> Bool {
        let jwk = ECPublicJWK(privateKey.publicKey)
        return keys.keys.contains {
            $0.kid == keyID && $0.kty == "EC" && $0.crv == "P-256" && $0.x == jwk.x && $0.y == jwk.y
        }
    }

    /// The public key set `{"keys": [publicJWK]}`, pretty-printed with sorted keys.
    public var publicJWKS: Data {
        (try? JSONSerialization.data(
            withJSONObject: ["keys": [publicJWK]],
            options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        )) ?? Data()
    }

    /// The private JWK (with `d`): secret, for a file written `0600` or a sealed store entry only.
    public var privateJWK: Data {
        var jwk = publicJWK
        jwk["d"] = Base64URL.encode(privateKey.rawRepresentation)
        return (try? JSONSerialization.data(withJSONObject: jwk, options: [.sortedKeys])) ?? Data()
    }

    /// Names the key by its `kid` only.
    public var description: String { "ClientKey(ES256, kid: \(keyID))" }
}
