import Crypto
import Foundation
package import WireFormat

/// A PKCE verifier and its S256 challenge (RFC 7636 §4.1–4.2).
///
/// The verifier is a secret until the token request; `description` never shows it.
package struct PKCE: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The code verifier: 43–128 characters of `[A-Za-z0-9-._~]`.
    package let verifier: String
    /// The code challenge: base64url(SHA-256(verifier)).
    package let challenge: String
    /// The challenge method; always `S256`.
    package static let method = "S256"

    /// Wraps an existing verifier, checking its length and characters (RFC 7636 §4.1).
    package init(verifier: String) throws {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        guard (43...128).contains(verifier.utf8.count), verifier.utf8.allSatisfy(allowed.contains) else {
            throw SessionError.invalidPKCEVerifier("a PKCE verifier must be 43–128 unreserved characters")
        }
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// Generates a verifier from 32 random bytes, which gives 43 characters.
    package static func generate(using random: any RandomSource = .system) -> PKCE {
        let verifier = Base64URL.encode(random.bytes(count: 32))
        return PKCE(checkedVerifier: verifier)
    }

    /// The S256 challenge of a verifier.
    package static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }

    /// Shows only the challenge.
    package var description: String { "PKCE(S256, challenge: \(challenge))" }

    /// The same as ``description``: no verifier.
    package var debugDescription: String { description }

    /// A mirror without the verifier, so `dump` and debuggers do not show it.
    package var customMirror: Mirror {
        Mirror(self, children: ["challenge": challenge, "verifier": "<redacted>"], displayStyle: .struct)
    }

    private init(checkedVerifier: String) {
        self.verifier = checkedVerifier
        self.challenge = Self.challenge(for: checkedVerifier)
    }
}
