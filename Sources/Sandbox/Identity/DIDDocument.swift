import Crypto
import Foundation

/// The DID document the sandbox's PLC directory serves for an account (atproto DID spec).
///
/// The signing key is a P-256 key derived from the DID, published as a `Multikey`; nothing is ever signed with
/// it, it only makes the document look like a real one.
enum DIDDocument {
    /// The document of an account whose PDS is at `pdsOrigin`.
    ///
    /// With `namesOtherHandle` (the `didDocumentNamesOtherHandle` fault), `alsoKnownAs` names `at://other-<handle>`,
    /// a handle nothing resolves, so the handle is not confirmed both ways (atproto.com/specs/handle).
    static func json(
        for account: SandboxAccount,
        pdsOrigin: String,
        namesOtherHandle: Bool = false
    ) -> [String: Any] {
        let handle = namesOtherHandle ? "other-" + account.handle : account.handle
        var document: [String: Any] = [
            "@context": [
                "https://www.w3.org/ns/did/v1",
                "https://w3id.org/security/multikey/v1",
            ],
            "id": account.did,
            "alsoKnownAs": ["at://\(handle)"],
            "service": [
                [
                    "id": "#atproto_pds",
                    "type": "AtprotoPersonalDataServer",
                    "serviceEndpoint": pdsOrigin,
                ]
            ],
        ]
        if let key = publicKeyMultibase(for: account.did) {
            document["verificationMethod"] = [
                [
                    "id": "\(account.did)#atproto",
                    "type": "Multikey",
                    "controller": account.did,
                    "publicKeyMultibase": key,
                ]
            ]
        }
        return document
    }

    /// A `z`-prefixed base58btc multikey: the `p256-pub` multicodec (0x1200) and the compressed point.
    static func publicKeyMultibase(for did: String) -> String? {
        let seed = SHA256.hash(data: Data("atoauth-sandbox-key:\(did)".utf8))
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: Array(seed)) else { return nil }
        return "z" + Base58.encode([0x80, 0x24] + Array(key.publicKey.compressedRepresentation))
    }
}
