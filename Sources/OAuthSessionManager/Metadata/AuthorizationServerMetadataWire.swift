/// Authorization server metadata as sent (RFC 8414 §2), every member optional so each check can name what is
/// missing; a member of the wrong type fails decoding with its name.
struct AuthorizationServerMetadataWire: Decodable, Sendable {
    let issuer: String?
    let authorizationEndpoint: String?
    let tokenEndpoint: String?
    let pushedAuthorizationRequestEndpoint: String?
    let revocationEndpoint: String?
    let requirePushedAuthorizationRequests: Bool?
    let clientIDMetadataDocumentSupported: Bool?
    let authorizationResponseIssParameterSupported: Bool?
    let codeChallengeMethodsSupported: [String]?
    let dpopSigningAlgValuesSupported: [String]?
    let tokenEndpointAuthMethodsSupported: [String]?
    let scopesSupported: [String]?
    let protectedResources: [String]?
    let promptValuesSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case clientIDMetadataDocumentSupported = "client_id_metadata_document_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case scopesSupported = "scopes_supported"
        case protectedResources = "protected_resources"
        case promptValuesSupported = "prompt_values_supported"
    }
}
