/// A completed sign-in: the new session, and what became of the account's previous one here.
package struct SignInCompletion: Sendable, Hashable {
    /// The new session, stored.
    package var session: Session
    /// The revocation of the previous session's grant, when the account had a session here before; `nil` when it
    /// had none.
    package var previousGrant: Revocation?
}
