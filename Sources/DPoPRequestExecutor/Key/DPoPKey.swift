public import Crypto
public import Foundation

/// An ES256 key pair that binds tokens to this client (RFC 9449); one per session.
///
/// The private key leaves this type only as ``persistedRepresentation``, which callers hand to an encrypted
/// keystore. `description` never shows it.
public struct DPoPKey: Sendable, CustomStringConvertible {
    /// The signing key.
    public let privateKey: P256.Signing.PrivateKey
    /// The public key as a JWK.
    public let publicJWK: ECPublicJWK
    /// The RFC 7638 thumbprint of the public key.
    public let thumbprint: String

    /// Generates a new key from the system CSPRNG.
    public init() {
        self.init(privateKey: P256.Signing.PrivateKey())
    }

    /// Wraps an existing private key.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
        self.publicJWK = ECPublicJWK(privateKey.publicKey)
        self.thumbprint = publicJWK.thumbprint
    }

    /// Restores a key from ``persistedRepresentation``.
    public init(persistedRepresentation data: Data) throws {
        guard data.count == 1 + 32, data.first == Self.formatVersion else {
            throw DPoPError.invalidKey("the stored DPoP key has an unknown format")
        }
        do {
            self.init(privateKey: try P256.Signing.PrivateKey(rawRepresentation: data.dropFirst()))
        } catch {
            throw DPoPError.invalidKey("the stored DPoP key is not a valid P-256 scalar")
        }
    }

    /// A version byte followed by the raw 32-byte scalar: secret, for an encrypted store only.
    public var persistedRepresentation: Data {
        var data = Data([Self.formatVersion])
        data.append(privateKey.rawRepresentation)
        return data
    }

    /// Names the key by its thumbprint only.
    public var description: String { "DPoPKey(ES256, jkt: \(thumbprint))" }

    private static let formatVersion: UInt8 = 1
}
