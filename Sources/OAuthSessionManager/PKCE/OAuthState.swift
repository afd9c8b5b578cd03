package import WireFormat

/// The OAuth `state` parameter: random, single use, carrying no data (RFC 6749 §10.12).
package enum OAuthState {
    /// How many random bytes a state holds.
    static let byteCount = 32

    /// A new state value: 32 random bytes, base64url (43 characters).
    package static func generate(using random: any RandomSource = .system) -> String {
        Base64URL.encode(random.bytes(count: byteCount))
    }

    /// Whether `state` has the form ``generate(using:)`` gives; one of another form matches no pending sign-in.
    static func isWellFormed(_ state: String) -> Bool {
        state.utf8.count == Base64URL.encodedCount(byteCount) && Base64URL.decode(state)?.count == byteCount
    }
}
