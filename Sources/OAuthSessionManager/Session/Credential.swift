public import Foundation

/// What a session's tokens belong to: a DPoP-bound OAuth grant or a legacy app-password grant.
public enum Credential: Sendable, Hashable {
    /// AT Protocol OAuth: tokens bound to the session's DPoP key (RFC 9449), refreshed and revoked at the
    /// authorization server that issued them.
    case oauth(OAuthGrant)
    /// A legacy app-password session (`com.atproto.server.createSession`): Bearer JWTs, refreshed and ended at the
    /// PDS.
    case appPassword(AppPasswordGrant)

    /// The kind of session the credential makes.
    public var kind: SessionKind {
        switch self {
        case .oauth: .oauth
        case .appPassword: .appPassword
        }
    }

    /// Whether a refresh token sent without a known outcome (a timeout, a connection cut after sending, a killed
    /// process) may be sent again.
    ///
    /// An OAuth refresh token is single-use: a second use ends the grant (atproto.com/specs/oauth, Tokens and
    /// Session Lifetime). An app-password refresh JWT is not: the reference PDS answers it again, with the same next
    /// refresh token, for two hours after its first use, and with `ExpiredToken` after that.
    var refreshTokenMayBeResent: Bool {
        switch self {
        case .oauth: false
        case .appPassword: true
        }
    }
}

/// An OAuth grant: who issued it, to which client, and where it is refreshed and revoked.
///
/// The DPoP key it is bound to is stored beside the session (``Session/keyEntryName(did:)``).
public struct OAuthGrant: Sendable, Hashable {
    /// The authorization server's issuer identifier (RFC 8414 §2).
    public var issuer: String
    /// The `client_id` the grant was issued to.
    public var clientID: String
    /// The token endpoint, for refresh.
    public var tokenEndpoint: URL
    /// The revocation endpoint, for sign-out (RFC 7009), when the server has one.
    public var revocationEndpoint: URL?
    /// The `kid` of the client key a confidential client's grant is bound to; `nil` for a public client.
    ///
    /// Every token and revocation request of the grant is authenticated with that key (atproto.com/specs/oauth,
    /// Client Authentication).
    public var clientKeyID: String?

    /// Creates a grant.
    public init(
        issuer: String,
        clientID: String,
        tokenEndpoint: URL,
        revocationEndpoint: URL?,
        clientKeyID: String? = nil
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.clientKeyID = clientKeyID
    }
}

/// An app-password grant: the PDS methods that refresh and end it.
public struct AppPasswordGrant: Sendable, Hashable {
    /// `com.atproto.server.refreshSession` on the account's PDS.
    public var refreshEndpoint: URL
    /// `com.atproto.server.deleteSession` on the account's PDS.
    public var deleteEndpoint: URL
}
