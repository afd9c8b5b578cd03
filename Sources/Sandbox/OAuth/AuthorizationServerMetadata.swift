import Foundation

/// The authorization server's metadata document (RFC 8414 §2, with the atproto profile's required fields): public
/// clients (`none`) and confidential ones (`private_key_jwt` with ES256 assertions, RFC 7523 §2.2) are served.
enum AuthorizationServerMetadata {
    /// The document of the authorization server at `origin` (its issuer) whose protected resource is `pdsOrigin`.
    ///
    /// Under the `issuerMismatch` fault the `issuer` is ``mismatchedIssuer(_:)``, the endpoints unchanged; under
    /// `noIssParameter`, `authorization_response_iss_parameter_supported` is `false` (RFC 9207 §3).
    static func json(origin: String, pdsOrigin: String, faults: SandboxFaults) -> [String: Any] {
        [
            "issuer": faults.issuerMismatch ? mismatchedIssuer(origin) : origin,
            "authorization_endpoint": origin + "/oauth/authorize",
            "token_endpoint": origin + "/oauth/token",
            "pushed_authorization_request_endpoint": origin + "/oauth/par",
            "revocation_endpoint": origin + "/oauth/revoke",
            "require_pushed_authorization_requests": true,
            "authorization_response_iss_parameter_supported": !faults.noIssParameter,
            "client_id_metadata_document_supported": true,
            "code_challenge_methods_supported": ["S256"],
            "dpop_signing_alg_values_supported": ["ES256"],
            "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
            "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
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

    /// The origin with `localhost` in place of `127.0.0.1`: the same server to a person, another issuer to a client,
    /// which compares issuers as strings (RFC 8414 §3.3).
    static func mismatchedIssuer(_ origin: String) -> String {
        origin.replacingOccurrences(of: "://127.0.0.1", with: "://localhost")
    }
}
