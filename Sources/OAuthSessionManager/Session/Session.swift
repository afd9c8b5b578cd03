public import ATProtoSyntax
public import Foundation

/// A signed-in account's session: who, where, the tokens, and the credential they belong to.
///
/// The store keeps it encrypted; `description` never shows a token.
///
/// The tokens are the same three things for both kinds: an access token sent with every request, when it expires,
/// and a refresh token, rotated on every refresh. What they are bound to is the ``credential``: a DPoP-bound OAuth
/// grant (atproto.com/specs/oauth), or a legacy app-password grant whose tokens are JWTs sent as
/// `Authorization: Bearer`.
public struct Session: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The account's DID, the tokens' `sub`.
    public var did: DID
    /// The handle the DID document names, when it has one.
    public var handle: Handle?
    /// The account's PDS origin; resource requests go there.
    public var pds: URL
    /// The granted scope (for an app-password session, the access JWT's `scope`).
    public var scope: String
    /// The scope the sign-in asked for, to tell what a grant lacks; `nil` when not asked (app passwords) or not kept
    /// (sessions stored before it was).
    public var requestedScope: String?
    /// The access token (OAuth: DPoP-bound; app password: the access JWT); secret.
    public var accessToken: String
    /// When the access token expires, if the server said.
    public var accessTokenExpiresAt: Date?
    /// The refresh token, rotated on every refresh (app password: the refresh JWT); secret.
    public var refreshToken: String?
    /// When the refresh token expires, if the server said (`refresh_token_expires_in` in its token answer, which
    /// RFC 6749 §5.1 allows as an extra member); `nil` when it did not.
    public var refreshTokenExpiresAt: Date?
    /// When the user signed in.
    public var createdAt: Date
    /// When the tokens were last issued.
    public var updatedAt: Date
    /// What the tokens belong to and where they are refreshed and revoked.
    public var credential: Credential
    /// The PLC directory and handle resolver the account was signed in with, when they were not the defaults; its
    /// refreshes resolve the DID there too, unless the manager is configured with other services.
    public var identityServices: IdentityServices?

    /// Creates a session.
    public init(
        did: DID,
        handle: Handle?,
        pds: URL,
        scope: String,
        requestedScope: String? = nil,
        accessToken: String,
        accessTokenExpiresAt: Date?,
        refreshToken: String?,
        refreshTokenExpiresAt: Date? = nil,
        createdAt: Date,
        updatedAt: Date,
        credential: Credential,
        identityServices: IdentityServices? = nil
    ) {
        self.did = did
        self.handle = handle
        self.pds = pds
        self.scope = scope
        self.requestedScope = requestedScope
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.credential = credential
        self.identityServices = identityServices
    }

    /// How the session authenticates: OAuth with DPoP, or a legacy app password with Bearer JWTs.
    public var kind: SessionKind { credential.kind }

    /// The server that issued the tokens: the OAuth authorization server, or the PDS of an app-password session.
    public var issuer: String {
        switch credential {
        case .oauth(let grant): grant.issuer
        case .appPassword: pds.absoluteString
        }
    }

    /// The handle when there is one, else the DID.
    public var displayName: String { handle?.description ?? did.rawValue }

    /// The keystore entry holding this account's session.
    public static func entryName(did: DID) -> String { "session/\(did.rawValue)" }

    /// The keystore entry holding the DPoP private key an OAuth session's tokens are bound to (RFC 9449 §6); kept
    /// apart from the session so that listing accounts never decodes a key.
    public static func keyEntryName(did: DID) -> String { "dpop-key/\(did.rawValue)" }

    /// Names the account and its server only.
    public var description: String {
        "Session(\(kind.rawValue) \(handle?.description ?? "-") \(did), pds: \(pds.absoluteString), scope: \(scope))"
    }

    /// The same as ``description``: no token.
    public var debugDescription: String { description }

    /// A mirror without the tokens, so `dump` and debuggers do not show them.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "kind": kind, "did": did, "handle": handle as Any, "pds": pds, "issuer": issuer, "scope": scope,
                "accessTokenExpiresAt": accessTokenExpiresAt as Any, "accessToken": "<redacted>",
                "refreshToken": "<redacted>", "refreshTokenExpiresAt": refreshTokenExpiresAt as Any,
            ],
            displayStyle: .struct
        )
    }
}
