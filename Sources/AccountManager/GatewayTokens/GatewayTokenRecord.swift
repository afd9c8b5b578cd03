public import ATProtoSyntax
public import Foundation

/// A named gateway token as the account store keeps it: never the token, only its SHA-256 digest, with what the
/// token may do and until when.
public struct GatewayTokenRecord: Sendable, Hashable, Codable {
    /// The token's name, unique in the store: 1–64 letters, digits, `.`, `_` or `-`.
    public var name: String
    /// The SHA-256 digest of the token, hex-encoded; the token itself is never stored.
    package var digest: String
    /// The accounts the token may act as, by DID; empty for every account the gateway serves.
    public var accounts: [DID]
    /// The permissions the token is limited to, canonical and space-separated; `nil` when unrestricted.
    public var scope: String?
    /// When it was made.
    public var created: Date
    /// When it stops working; `nil` for never.
    public var expires: Date?

    /// Whether it no longer works at `now`.
    public func hasExpired(at now: Date) -> Bool { expires.map { now >= $0 } ?? false }

    /// The name the gateway's audit log and metrics give the start-up token.
    package static let startupName = "startup"
    /// The name the gateway's metrics give a request without a valid token.
    package static let noTokenName = "none"
    /// The names a new token may not take, since the gateway's audit log and metrics use them.
    package static let reservedNames: Set<String> = [startupName, noTokenName]

    /// The characters a name may hold.
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }
}

/// A named token as `atoauth gateway token list` shows it: its record and when it was last used.
public struct GatewayTokenListing: Sendable, Hashable {
    /// The record.
    public var record: GatewayTokenRecord
    /// The last request it was used for, to within a minute; `nil` when never.
    public var lastUsed: Date?
}
