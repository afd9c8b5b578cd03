import Crypto
import Foundation
import WireFormat

/// A test account hosted by the sandbox: a handle, its `did:plc` DID and a display name.
public struct SandboxAccount: Sendable, Hashable {
    /// The handle, lowercase, such as `alice.test`.
    public var handle: String
    /// The account's DID: `did:plc:` and 24 characters of `[a-z2-7]`.
    public var did: String
    /// The display name `app.bsky.actor.getProfile` returns, if any.
    public var displayName: String?
    /// The app password `com.atproto.server.createSession` accepts, such as `abcd-efgh-ijkl-mnop`: a new random one
    /// for every account made, so it cannot be guessed; read it from ``SandboxServer/configuration``.
    public var appPassword: String
    /// The sign-in code a two-factor sign-in asks for (`AuthFactorTokenRequired`), or `nil` when the account signs
    /// in without one.
    public var authFactorToken: String?

    /// The account's email address, which `com.atproto.server.getSession` shows to a session that may read it:
    /// the handle at `example.com` (RFC 2606).
    public var email: String { "\(handle)@example.com" }

    /// Creates an account with a new random app password (``randomAppPassword()``); without a DID, one is derived
    /// from the handle, so it is the same on every run.
    ///
    /// - Parameters:
    ///   - handle: the handle; it is lowercased.
    ///   - did: a `did:plc` DID, or `nil` to derive one with ``derivedDID(for:)``.
    ///   - displayName: the profile's display name.
    ///   - twoFactor: whether an app-password sign-in asks for a sign-in code (``randomAuthFactorToken()``), new
    ///     and random like the app password.
    public init(handle: String, did: String? = nil, displayName: String? = nil, twoFactor: Bool = false) {
        let handle = handle.lowercased()
        self.handle = handle
        self.did = did ?? Self.derivedDID(for: handle)
        self.displayName = displayName
        self.appPassword = Self.randomAppPassword()
        self.authFactorToken = twoFactor ? Self.randomAuthFactorToken() : nil
    }

    /// A new app password from the operating system's CSPRNG: 80 random bits as four groups of four base32
    /// characters (`xxxx-xxxx-xxxx-xxxx`), as Bluesky's look.
    public static func randomAppPassword() -> String {
        let text = Array(Base32.encode(SystemRandomSource().bytes(count: 10)))
        return stride(from: 0, to: 16, by: 4).map { String(text[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// A new sign-in code for a two-factor account, from the operating system's CSPRNG: 50 random bits as two
    /// groups of five uppercase base32 characters (`XXXXX-XXXXX`), as Bluesky's emailed codes look.
    public static func randomAuthFactorToken() -> String {
        let text = Array(Base32.encode(SystemRandomSource().bytes(count: 7)).uppercased().prefix(10))
        return String(text[0..<5]) + "-" + String(text[5..<10])
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

    /// The default accounts, `alice.test` and `bob.test`, made anew on every read: each read has new app passwords,
    /// so a sandbox's passwords are those of its own configuration.
    public static var defaults: [SandboxAccount] {
        [
            SandboxAccount(handle: "alice.test", displayName: "Alice"),
            SandboxAccount(handle: "bob.test", displayName: "Bob"),
        ]
    }
}
