/// Authorization server metadata as sent (RFC 8414 §2), every member optional so each check can name what is
/// missing; a member of the wrong type fails decoding with its name.
package struct AuthorizationServerMetadataWire: Decodable, Sendable {
    package let issuer: String?
    package let authorizationEndpoint: String?
    package let tokenEndpoint: String?
    package let pushedAuthorizationRequestEndpoint: String?
    package let revocationEndpoint: String?
    package let requirePushedAuthorizationRequests: Bool?
    package let clientIDMetadataDocumentSupported: Bool?
    package let authorizationResponseIssParameterSupported: Bool?
    package let codeChallengeMethodsSupported: [String]?
    package let dpopSigningAlgValuesSupported: [String]?
    package let tokenEndpointAuthMethodsSupported: [String]?
    package let tokenEndpointAuthSigningAlgValuesSupported: [String]?
    package let scopesSupported: [String]?
    package let protectedResources: [String]?
    package let promptValuesSupported: [String]?
    package let responseTypesSupported: [String]?
    package let grantTypesSupported: [String]?

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
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case scopesSupported = "scopes_supported"
        case protectedResources = "protected_resources"
        case promptValuesSupported = "prompt_values_supported"
        case responseTypesSupported = "response_types_supported"
        case grantTypesSupported = "grant_types_supported"
    }
}
