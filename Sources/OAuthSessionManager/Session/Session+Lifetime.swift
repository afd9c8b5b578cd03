public import Foundation

extension Session {
    /// How long a public client's OAuth session lasts at most from sign-in, however often it is refreshed
    /// (atproto.com/specs/oauth, Tokens and Session Lifetime: two weeks for untrusted public clients).
    public static let longestPublicClientSession: TimeInterval = 14 * 86_400

    /// How long a confidential client's session lasts at the reference authorization server (@atproto/oauth-provider):
    /// two years from sign-in, its refresh tokens three months each (atproto.com/specs/oauth, Tokens and Session
    /// Lifetime, leaves it to the server; it may be unlimited).
    public static let confidentialClientSession: TimeInterval = 730 * 86_400

    /// Whether the session belongs to a confidential client (`private_key_jwt`), which the server may keep far
    /// longer than a public client's.
    public var isConfidential: Bool {
        guard case .oauth(let grant) = credential else { return false }
        return grant.clientKeyID != nil
    }

    /// When the session ends at the latest, if the server does not end it sooner: two weeks after sign-in for an
    /// OAuth session of a public client, two years (the reference server's ceiling) for a confidential client's;
    /// for an app-password session, when its refresh JWT expires (its `exp`), which each refresh moves on.
    public var endsAtLatest: Date {
        if kind == .appPassword, let expiry = refreshToken.flatMap({ LegacyJWTClaims(token: $0) })?.expiresAt {
            return expiry
        }
        if isConfidential { return createdAt.addingTimeInterval(Self.confidentialClientSession) }
        return createdAt.addingTimeInterval(Self.longestPublicClientSession)
    }

    /// Whether the session ends only when it is no longer refreshed (an app-password session), rather than at a
    /// fixed time after sign-in.
    public var endIsRenewedByRefresh: Bool { kind == .appPassword }
}
