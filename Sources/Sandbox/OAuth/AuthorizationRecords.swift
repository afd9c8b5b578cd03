import Foundation

/// A client as the authorization server knows it: from a loopback `client_id` or a configured metadata document.
struct ClientRegistration: Sendable, Hashable {
    /// Where the registration comes from, which decides how redirect URIs match.
    enum Kind: Sendable, Hashable {
        /// The `http://localhost` development client.
        case loopback
        /// A hosted document with `application_type: native`.
        case native
        /// A hosted document with `application_type: web`.
        case web
    }

    /// The `client_id`.
    var clientID: String
    /// Where the registration comes from.
    var kind: Kind
    /// The registered redirect URIs.
    var redirectURIs: [String]
    /// The scope tokens the client may ask for, as it registered them: a request must spell each one the same way.
    var scopes: Set<String>
    /// How the client authenticates at the PAR, token and revocation endpoints.
    var authentication: ClientAuthenticationMethod = .publicClient
    /// What the sandbox's pages show of the client: nothing for the loopback client.
    var presentation = ClientPresentation()
}

/// A client's `token_endpoint_auth_method` (RFC 7591 §2), as the sandbox supports it (atproto.com/specs/oauth,
/// Client Authentication).
enum ClientAuthenticationMethod: Sendable, Hashable {
    /// `none`: a public client, which sends no client assertion.
    case publicClient
    /// `private_key_jwt` (RFC 7523 §2.2) with ES256: a confidential client, whose keys are found here.
    case privateKeyJWT(ClientKeySource)
}

/// Where a confidential client's public keys are: inline in its document (`jwks`) or at a URL (`jwks_uri`).
enum ClientKeySource: Sendable, Hashable {
    /// The document's `jwks`, read when the document was.
    case inline(ClientKeySet)
    /// The document's `jwks_uri`: a configured document, or one the sandbox fetches from a loopback address.
    case uri(String)
}

/// A pushed authorization request (RFC 9126), validated and waiting for the user.
struct PushedAuthorization: Sendable {
    /// The `request_uri` handed to the client.
    var requestURI: String
    /// The client.
    var clientID: String
    /// The redirect URI, exactly as sent; the token request must repeat it.
    var redirectURI: String
    /// The client's `state`, echoed in the redirect.
    var state: String
    /// The requested scope, in canonical form (atproto.com/specs/permission), `include:` references unexpanded.
    var scope: String
    /// The S256 PKCE challenge.
    var codeChallenge: String
    /// The DID of the `login_hint` account, if a hint was given.
    var loginHintDID: String?
    /// The `prompt` the client sent (OpenID Connect Core §3.1.2.1; `create` from OpenID Connect Prompt Create), if any.
    var prompt: String?
    /// The thumbprint of the PAR's DPoP key; every token is bound to it.
    var dpopKeyThumbprint: String
    /// The key a confidential client's PAR assertion was signed with, which its code exchange must use too; `nil`
    /// for a public client.
    var clientKey: ClientKeyBinding?
    /// When the `request_uri` expires.
    var expiresAt: Date
    /// What the pages show of the client, from its document as it was at the PAR.
    var clientPresentation = ClientPresentation()
}

/// An issued authorization code.
struct AuthorizationCodeRecord: Sendable {
    /// The request it answers.
    var request: PushedAuthorization
    /// The DID of the account that approved.
    var subject: String
    /// When it expires.
    var expiresAt: Date
    /// Whether it was redeemed already.
    var isUsed = false
    /// The session it created, revoked when the code is presented again.
    var sessionID: String?
    /// Whether it was presented again before its first redemption created a session, which then is never created.
    var isRevoked = false
}

/// A session: one sign-in of one client to one account, holding its refresh token chain and access tokens.
struct SessionRecord: Sendable {
    /// The session id (shown shortened in logs).
    var id: String
    /// The account DID (`sub`).
    var subject: String
    /// The client.
    var clientID: String
    /// The scope the client requested at the PAR, in canonical form; every refresh grants from it again.
    var requestedScope: String
    /// The scope granted last, `include:` references expanded.
    var scope: String
    /// The DPoP key thumbprint every token is bound to (`cnf.jkt`).
    var dpopKeyThumbprint: String
    /// For a confidential client, the key of its assertion at the code exchange: every refresh must be signed with
    /// it; `nil` for a public client.
    var clientKey: ClientKeyBinding?
    /// The refresh token that may be used next.
    var refreshToken: String
    /// Every refresh token used before; presenting one again deletes the session.
    var usedRefreshTokens: Set<String> = []
    /// Every access token issued.
    var accessTokens: Set<String> = []
    /// When the session ends, however often it is refreshed (atproto.com/specs/oauth, Tokens and Session Lifetime).
    var expiresAt: Date
    /// When the current refresh token expires: ``expiresAt`` for a public client; for a confidential one, the
    /// confidential refresh token lifetime after it was issued, at most ``expiresAt``.
    var refreshTokenExpiresAt: Date
}

/// An access token's server-side record (the token itself is opaque).
struct AccessTokenRecord: Sendable {
    /// The session.
    var sessionID: String
    /// The account DID.
    var subject: String
    /// The scope granted when it was issued, which a later refresh does not change.
    var scope: String
    /// The DPoP key thumbprint (`cnf.jkt`).
    var dpopKeyThumbprint: String
    /// When it expires.
    var expiresAt: Date
}
