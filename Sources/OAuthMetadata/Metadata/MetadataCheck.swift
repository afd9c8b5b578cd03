/// The checks of a PDS's and its authorization server's metadata, in the order the doctor reports them: each one's
/// stable kebab-case name and the section it follows, the one table both a sign-in's errors and the doctor's
/// findings cite.
package enum MetadataCheck: String, Sendable, CaseIterable {
    /// The PDS's protected resource metadata: `resource` and `authorization_servers`.
    case protectedResource = "resource-metadata"
    /// The authorization server's metadata document as a whole.
    case serverMetadata = "as-metadata"
    /// `issuer` identical to the URL the metadata was fetched for.
    case issuer = "as-metadata-issuer"
    /// PAR required, and its endpoint.
    case pushedRequests = "as-metadata-par"
    /// `ES256` among the DPoP algorithms.
    case dpopAlgorithms = "as-metadata-dpop"
    /// PKCE `S256`.
    case pkce = "as-metadata-pkce"
    /// The authorization code flow (`code`) with refresh tokens.
    case grants = "as-metadata-grants"
    /// The `iss` authorization response parameter.
    case issParameter = "as-metadata-iss"
    /// `none` and `private_key_jwt` client authentication.
    case clientAuthentication = "as-metadata-client-auth"
    /// Client ID metadata documents.
    case clientIDDocuments = "as-metadata-client-id-documents"
    /// The `atproto` scope, and the transition scopes asked for.
    case scopes = "as-metadata-scopes"
    /// `prompt_values_supported`.
    case prompts = "as-metadata-prompt"
    /// Every endpoint usable, on the issuer's origin, and a revocation endpoint.
    case endpoints = "as-metadata-endpoints"
    /// The PDS among the server's `protected_resources`.
    case protectedResources = "as-protected-resources"

    /// The section the check follows.
    package var rule: String {
        switch self {
        case .protectedResource: "RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers"
        case .serverMetadata: "RFC 8414 §3; atproto.com/specs/oauth, Authorization Servers"
        case .issuer: "RFC 8414 §3.3"
        case .pushedRequests: "RFC 9126 §5; atproto.com/specs/oauth, Authorization Servers"
        case .dpopAlgorithms: "RFC 9449 §5.1; atproto.com/specs/oauth, DPoP"
        case .pkce: "RFC 7636 §4.2; atproto.com/specs/oauth, Authorization Servers"
        case .grants: "RFC 8414 §2; atproto.com/specs/oauth, Authorization Servers"
        case .issParameter: "RFC 9207 §3; atproto.com/specs/oauth, Authorization Servers"
        case .clientAuthentication: "RFC 8414 §2; atproto.com/specs/oauth, Client Authentication"
        case .clientIDDocuments: "atproto.com/specs/oauth, Clients (client ID metadata documents)"
        case .scopes: "RFC 8414 §2; atproto.com/specs/oauth, Scopes"
        case .prompts: "OpenID Connect Prompt Create §4.1"
        case .endpoints: "RFC 8414 §2; atproto.com/specs/oauth, Security Concerns"
        case .protectedResources: "RFC 9728 §4; atproto.com/specs/oauth, Authorization Servers"
        }
    }
}
