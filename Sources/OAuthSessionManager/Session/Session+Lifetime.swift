public import Foundation

extension Session {
    /// How long a public client's OAuth session lasts at most from sign-in, however often it is refreshed
    /// (atproto.com/specs/oauth, Tokens and Session Lifetime: two weeks for untrusted public clients).
    public static let longestPublicClientSession: TimeInterval = 14 * 86_400

    /// When the session ends at the latest, if the server does not end it sooner: two weeks after sign-in for an
    /// OAuth session of a public client; for an app-password session, when its refresh JWT expires (its `exp`),
    /// which each refresh moves on.
    public var endsAtLatest: Date {
        if kind == .appPassword, let expiry = refreshToken.flatMap({ LegacyJWTClaims(token: $0) })?.expiresAt {
            return expiry
        }
        return createdAt.addingTimeInterval(Self.longestPublicClientSession)
    }

    /// Whether the session ends only when it is no longer refreshed (an app-password session), rather than at a
    /// fixed time after sign-in.
    public var endIsRenewedByRefresh: Bool { kind == .appPassword }
}
