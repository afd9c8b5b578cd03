import Crypto
import Foundation
import WireFormat

/// A compact JWS (RFC 7515 §7.1) split into its three parts, nothing checked yet: each verifier decodes the parts it
/// needs, in its own order, and words its own refusals.
struct CompactJWS {
    /// What was signed: the header and payload parts and the dot between them (RFC 7515 §5.1).
    let signingInput: Data
    private let parts: [Substring]

    /// Splits `token`; `nil` unless it has exactly three parts.
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        self.parts = parts
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    }

    /// The header (RFC 7515 §4); `nil` unless it is a base64url JSON object.
    var header: [String: Any]? { Base64URL.decode(parts[0]).flatMap(JSONBody.decodeObject) }
    /// The payload; `nil` unless it is a base64url JSON object.
    var payload: [String: Any]? { Base64URL.decode(parts[1]).flatMap(JSONBody.decodeObject) }
    /// The signature's bytes; `nil` unless it is base64url.
    var signature: Data? { Base64URL.decode(parts[2]) }
    /// The signature as ES256's 64-byte R‖S value (RFC 7518 §3.4); `nil` when it is not one.
    var es256Signature: P256.Signing.ECDSASignature? {
        guard let bytes = signature, bytes.count == 64 else { return nil }
        return try? P256.Signing.ECDSASignature(rawRepresentation: bytes)
    }
}
