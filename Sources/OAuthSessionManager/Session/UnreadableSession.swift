public import ATProtoSyntax

/// A stored session whose keystore entry cannot be read: damaged, moved from another entry, or not a regular file.
///
/// Listing sessions reports it instead of failing, so one bad entry does not hide the other accounts; it can be
/// removed by its DID with `AccountManager.remove(_:)` without being decrypted.
public struct UnreadableSession: Sendable, Hashable {
    /// The account the entry belongs to, taken from the entry's name.
    public let did: DID
    /// Why the entry cannot be read; never contains a token or a key.
    public let reason: String
}
