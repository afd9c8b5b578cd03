public import OAuthSessionManager

/// The signed-in accounts, and the stored sessions that cannot be read.
public struct AccountListing: Sendable {
    /// Every account whose session can be read, sorted by handle, with the active one marked.
    public var accounts: [Account]
    /// Sessions whose entries are damaged; each can be removed with ``AccountManager/remove(_:)`` (by its DID).
    public var unreadable: [UnreadableSession]
}
