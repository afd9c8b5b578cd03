import ATProtoIdentity
public import ATProtoSyntax
public import Foundation
import HTTPTransport
import WireFormat

/// A signed-in account's session: who, where, and the tokens (kept encrypted in the keystore).
///
/// Most sessions are OAuth sessions with DPoP-bound tokens; a legacy app-password session (``kind`` is
/// ``SessionKind/appPassword``) keeps its access JWT in ``accessToken``, its refresh JWT in ``refreshToken``, the PDS
/// as ``issuer``, and the PDS's `refreshSession` and `deleteSession` URLs as ``tokenEndpoint`` and
/// ``revocationEndpoint``. `description` never shows a token.
public struct OAuthSession: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The account's DID, the token's `sub`.
    public var did: DID
    /// The handle the DID document names, when it has one.
    public var handle: Handle?
    /// The account's PDS origin; resource requests go there.
    public var pds: URL
    /// The authorization server that issued the tokens.
    public var issuer: String
    /// The granted scope.
    public var scope: String
    /// The DPoP-bound access token; secret.
    public var accessToken: String
    /// When the access token expires, if the server said.
    public var accessTokenExpiresAt: Date?
    /// The single-use refresh token; secret.
    public var refreshToken: String?
    /// The `client_id` the session was issued to.
    public var clientID: String
    /// The token endpoint, for refresh.
    public var tokenEndpoint: URL
    /// The revocation endpoint, for sign-out.
    public var revocationEndpoint: URL?
    /// When the user signed in.
    public var createdAt: Date
    /// When the tokens were last issued.
    public var updatedAt: Date
    /// The scope the sign-in asked for, to tell what a grant lacks; `nil` in sessions stored before it was kept.
    public var requestedScope: String? = nil
    /// The kind as stored; `nil` in sessions stored before app-password sessions existed, which are all OAuth.
    var storedKind: SessionKind? = nil

    /// How the session authenticates: OAuth with DPoP, or a legacy app password with Bearer JWTs.
    public var kind: SessionKind {
        get { storedKind ?? .oauth }
        set { storedKind = newValue }
    }

    enum CodingKeys: String, CodingKey {
        case did, handle, pds, issuer, scope, accessToken, accessTokenExpiresAt, refreshToken, clientID
        case tokenEndpoint, revocationEndpoint, createdAt, updatedAt, requestedScope
        case storedKind = "kind"
    }

    /// The keystore entry holding this account's session.
    public static func entryName(did: DID) -> String { "session/\(did.rawValue)" }

    /// The keystore entry holding this account's DPoP key.
    public static func keyEntryName(did: DID) -> String { "dpop-key/\(did.rawValue)" }

    /// Names the account and its server only.
    public var description: String {
        "OAuthSession(\(kind.rawValue) \(handle?.description ?? "-") \(did), pds: \(pds.absoluteString), scope: \(scope))"
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
                "refreshToken": "<redacted>",
            ],
            displayStyle: .struct
        )
    }
}
