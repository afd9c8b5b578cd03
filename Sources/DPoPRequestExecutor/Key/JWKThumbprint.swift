import Crypto
import Foundation
import WireFormat

/// JWK thumbprints (RFC 7638): SHA-256 over the required members in lexicographic order, no white space.
public enum JWKThumbprint {
    /// The canonical JSON of the given required members (RFC 7638 §3.2); every member value is a string.
    public static func canonicalJSON(requiredMembers: [String: String]) -> String {
        let names = requiredMembers.keys.sorted { Array($0.utf16).lexicographicallyPrecedes($1.utf16) }
        var output = [UInt8]()
        JSONString.appendObject(names.map { ($0, requiredMembers[$0] ?? "") }, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The base64url SHA-256 thumbprint of the given required members (RFC 7638 §3.1).
    public static func sha256(requiredMembers: [String: String]) -> String {
        Base64URL.encode(SHA256.hash(data: Data(canonicalJSON(requiredMembers: requiredMembers).utf8)))
    }
}
