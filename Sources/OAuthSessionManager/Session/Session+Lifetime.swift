public import Foundation

extension Session {
    /// How long a public client's OAuth session lasts at most from sign-in, however often it is refreshed, and each
    /// of its refresh tokens (atproto.com/specs/oauth, Tokens and Session Lifetime: two weeks for untrusted public
    /// clients).
    public static let longestPublicClientSession: TimeInterval = 14 * 86_400

    /// How long a confidential client's session lasts at the reference authorization server (@atproto/oauth-provider):
    /// two years of 365.25 days from sign-in (atproto.com/specs/oauth, Tokens and Session Lifetime, leaves it to the
    /// server; it may be unlimited).
    public static let confidentialClientSession: TimeInterval = 2 * 365.25 * 86_400

    /// How long each refresh token of a confidential client lives at the reference authorization server when it is
    /// not used: three months, a quarter of a 365.25-day year (atproto.com/specs/oauth, Tokens and Session Lifetime:
    /// up to 180 days).
    public static let confidentialClientRefreshToken: TimeInterval = 365.25 / 4 * 86_400

    /// Whether the session belongs to a confidential client (`private_key_jwt`), which the server may keep far
    /// longer than a public client's.
    public var isConfidential: Bool {
        guard case .oauth(let grant) = credential else { return false }
        return grant.clientKeyID != nil
    }

    /// When the session ends at the latest, if the server does not end it sooner.
    ///
    /// An OAuth session ends at the earlier of two times (atproto.com/specs/oauth, Tokens and Session Lifetime): the
    /// session's ceiling, counted from sign-in (two weeks for a public client, two years for a confidential one at the
    /// reference server), and the expiry of its refresh token, counted from the last refresh: the expiry the server
    /// gave (`refresh_token_expires_in`), else the profile's lifetime (two weeks for a public client, three months for
    /// a confidential one at the reference server). An app-password session ends when its refresh JWT expires (its
    /// `exp`), which each refresh moves on.
    public var endsAtLatest: Date {
        if kind == .appPassword, let expiry = refreshToken.flatMap({ LegacyJWTClaims(token: $0) })?.expiresAt {
            return expiry
        }
        return min(ceiling, refreshTokenEndsAt)
    }

    /// Whether the session ends only when it is no longer refreshed: an app-password session, or an OAuth session
    /// whose refresh token expires before the session's ceiling, which each refresh moves on up to that ceiling.
    public var endIsRenewedByRefresh: Bool {
        kind == .appPassword || refreshTokenEndsAt < ceiling
    }

    /// The latest an OAuth session lasts from sign-in, however often it is refreshed.
    private var ceiling: Date {
        createdAt.addingTimeInterval(isConfidential ? Self.confidentialClientSession : Self.longestPublicClientSession)
    }

    /// When the refresh token expires unless used: as the server said, else the profile's lifetime from the last
    /// refresh.
    private var refreshTokenEndsAt: Date {
        refreshTokenExpiresAt
            ?? updatedAt.addingTimeInterval(
                isConfidential ? Self.confidentialClientRefreshToken : Self.longestPublicClientSession
            )
    }
}
