import Crypto
import Foundation

/// A test account hosted by the sandbox: a handle, its `did:plc` DID and a display name.
public struct SandboxAccount: Sendable, Hashable {
    /// The handle, lowercase, such as `alice.test`.
    public var handle: String
    /// The account's DID: `did:plc:` and 24 characters of `[a-z2-7]`.
    public var did: String
    /// The display name `app.bsky.actor.getProfile` returns, if any.
    public var displayName: String?

    /// Creates an account; without a DID, one is derived from the handle, so it is the same on every run.
    ///
    /// - Parameters:
    ///   - handle: the handle; it is lowercased.
    ///   - did: a `did:plc` DID, or `nil` to derive one with ``derivedDID(for:)``.
    ///   - displayName: the profile's display name.
    public init(handle: String, did: String? = nil, displayName: String? = nil) {
        let handle = handle.lowercased()
        self.handle = handle
        self.did = did ?? Self.derivedDID(for: handle)
        self.displayName = displayName
    }

    /// The DID the sandbox gives a handle: `did:plc:` and the first 24 base32 characters of a SHA-256 of it.
    public static func derivedDID(for handle: String) -> String {
        let digest = SHA256.hash(data: Data("atoauth-sandbox:\(handle.lowercased())".utf8))
        return "did:plc:" + String(Base32.encode(digest).prefix(24))
    }

    /// Whether a string is a well-formed `did:plc` DID (`did:plc:` and 24 characters of `[a-z2-7]`).
    public static func isPLCDID(_ value: String) -> Bool {
        guard value.hasPrefix("did:plc:") else { return false }
        let identifier = value.utf8.dropFirst(8)
        return identifier.count == 24 && identifier.allSatisfy { Base32.alphabet.contains($0) }
    }

    /// The default accounts: `alice.test` and `bob.test`.
    public static let defaults: [SandboxAccount] = [
        SandboxAccount(handle: "alice.test", displayName: "Alice"),
        SandboxAccount(handle: "bob.test", displayName: "Bob"),
    ]
}
