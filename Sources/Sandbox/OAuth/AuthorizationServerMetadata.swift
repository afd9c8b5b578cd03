/// The authorization server's metadata document (RFC 8414 §2, with the atproto profile's required fields).
enum AuthorizationServerMetadata {
    /// The document for an issuer whose protected resource is `pdsOrigin`.
    static func json(issuer: String, pdsOrigin: String) -> [String: Any] {
        [
            "issuer": issuer,
            "authorization_endpoint": issuer + "/oauth/authorize",
            "token_endpoint": issuer + "/oauth/token",
            "pushed_authorization_request_endpoint": issuer + "/oauth/par",
            "revocation_endpoint": issuer + "/oauth/revoke",
            "require_pushed_authorization_requests": true,
            "authorization_response_iss_parameter_supported": true,
            "client_id_metadata_document_supported": true,
            "code_challenge_methods_supported": ["S256"],
            "dpop_signing_alg_values_supported": ["ES256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": OAuthScope.supported,
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "subject_types_supported": ["public"],
            "ui_locales_supported": ["en-US"],
            "display_values_supported": ["page"],
            "prompt_values_supported": SignUp.promptValues,
            "request_parameter_supported": false,
            "request_uri_parameter_supported": true,
            "require_request_uri_registration": true,
            "protected_resources": [pdsOrigin],
        ]
    }
}
