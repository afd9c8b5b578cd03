/// A completed sign-in: the new session, and what became of the account's previous one here.
public struct SignInCompletion: Sendable, Hashable {
    /// The new session, stored.
    public var session: OAuthSession
    /// The revocation of the previous session's grant, when the account had a session here before; `nil` when it
    /// had none.
    public var previousGrant: OAuthSessionManager.RevocationResult?

    /// Creates a completion.
    public init(session: OAuthSession, previousGrant: OAuthSessionManager.RevocationResult?) {
        self.session = session
        self.previousGrant = previousGrant
    }
}
