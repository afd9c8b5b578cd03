/// Where each rule of ``ClientMetadataCheck`` is stated.
///
/// "Reference server" is the AT Protocol reference authorization server, `@atproto/oauth-provider`, which refuses
/// some documents the specifications leave open.
enum CheckRule {
    static let document = "atproto.com/specs/oauth, Clients; RFC 7591 §2"
    static let size = "atproto.com/specs/oauth, Clients (fetched at each sign-in; atoauth allows 64 KiB)"
    static let clientID =
        "atproto.com/specs/oauth, Clients (client_id is the document's own https URL); "
        + "draft-ietf-oauth-client-id-metadata-document, Client Identifier"
    static let applicationType = "atproto.com/specs/oauth, Clients; OpenID Connect Registration §2 (application_type)"
    static let grantTypes = "atproto.com/specs/oauth, Clients (grant_types); RFC 7591 §2"
    static let refusedGrant = "RFC 9700 §2.1.2 and §2.4; reference server (implicit and password are refused)"
    static let responseTypes = "atproto.com/specs/oauth, Clients (response_types); RFC 7591 §2.1"
    static let scope = "atproto.com/specs/oauth, Scopes; atproto.com/specs/permission"
    static let scopeSyntax = "RFC 6749 §3.3"
    static let listedTwice = "reference server (no value listed twice)"
    static let dpop = "atproto.com/specs/oauth, DPoP; RFC 9449 §5.2"
    static let redirectURIs = "atproto.com/specs/oauth, Clients (redirect_uris); RFC 6749 §3.1.2"
    static let redirectUserInfo = "reference server (a redirect URI carries no credentials)"
    static let loopbackRedirect = "RFC 8252 §7.3 and §8.3"
    static let privateUseRedirect = "RFC 8252 §7.1; atproto.com/specs/oauth, Clients"
    static let webRedirect =
        "atproto.com/specs/oauth, Clients (a web client redirects to https); OpenID Connect Registration §2"
    static let redirectHost = "reference server (an https redirect URI is on the client_id's host); RFC 8252 §8.4"
    static let authMethod = "atproto.com/specs/oauth, Client Authentication; RFC 7591 §2"
    static let nativeIsPublic = "RFC 8252 §8.4 (a native app is a public client); reference server"
    static let publicSignsNothing = "reference server (none goes without token_endpoint_auth_signing_alg)"
    static let signingAlgorithm = "atproto.com/specs/oauth, Client Authentication (ES256)"
    static let keys = "atproto.com/specs/oauth, Client Authentication; RFC 7591 §2 (jwks, jwks_uri)"
    static let keySet = "RFC 7517 §5"
    static let keyID = "RFC 7517 §4.5; atproto.com/specs/oauth, Client Authentication"
    static let keyMembers = "RFC 7518 §6.2.1 (EC P-256 for ES256); RFC 7517 §4"
    static let privateKey = "RFC 7591 §2 (jwks holds public keys only); RFC 7518 §6.2.2"
    static let uniqueKeyIDs = "RFC 7517 §4.5 (distinct kid values within a set)"
    static let clientURI = "reference server (client_uri has the client_id's origin and is a parent of it)"
    static let serverRefusal =
        "reference server (no OpenID Connect members, encrypted responses, mTLS-bound tokens or authorization details)"
    static let repeatedName = "RFC 8259 §4 (names in an object should be unique; parsers differ on which value counts)"
    static let displayURIs = "atproto.com/specs/oauth, Clients; RFC 7591 §2 (client_uri, logo_uri, tos_uri, policy_uri)"
}
