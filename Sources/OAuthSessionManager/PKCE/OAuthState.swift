package import WireFormat

/// The OAuth `state` parameter: random, single use, carrying no data (RFC 6749 §10.12).
package enum OAuthState {
    /// A new state value: 32 random bytes, base64url (43 characters).
    package static func generate(using random: any RandomSource = .system) -> String {
        Base64URL.encode(random.bytes(count: 32))
    }
}
