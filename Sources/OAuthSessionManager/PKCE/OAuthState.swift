public import WireFormat

/// The OAuth `state` parameter: random, single use, carrying no data (RFC 6749 §10.12).
public enum OAuthState {
    /// A new state value: 32 random bytes, base64url (43 characters).
    public static func generate(using random: any RandomSource = .system) -> String {
        Base64URL.encode(random.bytes(count: 32))
    }
}
