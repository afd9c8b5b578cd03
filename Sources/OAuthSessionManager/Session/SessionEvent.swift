public import ATProtoSyntax

/// A change to a stored session that an app can observe through `AccountManager.events()`.
public enum SessionEvent: Sendable, Hashable {
    /// The session was created or its tokens were refreshed.
    case updated(did: DID)
    /// The session was deleted: signed out, revoked by the server, or refused on refresh.
    case deleted(did: DID, reason: DeletionReason)

    /// Why a session was deleted.
    public enum DeletionReason: Sendable, Hashable {
        /// The user signed out.
        case signedOut
        /// The server refused the refresh token (`invalid_grant`); the user must sign in again.
        case refreshRefused
    }
}
