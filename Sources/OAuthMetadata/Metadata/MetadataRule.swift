/// The sections the metadata checks follow, one citation per check: the one table both a sign-in's errors and the
/// doctor's findings cite.
package enum MetadataRule {
    /// The PDS's protected resource metadata: `resource` and `authorization_servers`.
    package static let protectedResource = "RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers"
    /// The authorization server's metadata document as a whole.
    package static let serverMetadata = "RFC 8414 §3; atproto.com/specs/oauth, Authorization Servers"
    /// `issuer` identical to the URL the metadata was fetched for.
    package static let issuer = "RFC 8414 §3.3"
    /// PAR required, and its endpoint.
    package static let pushedRequests = "RFC 9126 §5; atproto.com/specs/oauth, Authorization Servers"
    /// `ES256` among the DPoP algorithms.
    package static let dpopAlgorithms = "RFC 9449 §5.1; atproto.com/specs/oauth, DPoP"
    /// The authorization code flow (`code`) with refresh tokens.
    package static let grants = "RFC 8414 §2; atproto.com/specs/oauth, Authorization Servers"
    /// PKCE `S256`.
    package static let pkce = "RFC 7636 §4.2; atproto.com/specs/oauth, Authorization Servers"
    /// The `iss` authorization response parameter.
    package static let issParameter = "RFC 9207 §3; atproto.com/specs/oauth, Authorization Servers"
    /// `none` and `private_key_jwt` client authentication.
    package static let clientAuthentication = "RFC 8414 §2; atproto.com/specs/oauth, Client Authentication"
    /// Client ID metadata documents.
    package static let clientIDDocuments = "atproto.com/specs/oauth, Clients (client ID metadata documents)"
    /// The `atproto` scope, and the transition scopes asked for.
    package static let scopes = "RFC 8414 §2; atproto.com/specs/oauth, Scopes"
    /// `prompt_values_supported`.
    package static let prompts = "OpenID Connect Prompt Create §4.1"
    /// Every endpoint usable, on the issuer's origin, and a revocation endpoint.
    package static let endpoints = "RFC 8414 §2; atproto.com/specs/oauth, Security Concerns"
    /// The PDS among the server's `protected_resources`.
    package static let protectedResources = "RFC 9728 §4; atproto.com/specs/oauth, Authorization Servers"
}
