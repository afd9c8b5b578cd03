import Crypto
import Foundation
import WireFormat

/// The authorization server's side of PKCE (RFC 7636 §4.6): the verifier's syntax and its S256 challenge.
enum PKCEVerification {
    /// Whether a verifier has 43–128 unreserved characters (RFC 7636 §4.1).
    static func isWellFormed(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy(unreserved.contains)
    }

    /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))`.
    static func s256Challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
}
