import Foundation

/// Metadata documents as servers send them, with the values the metadata tests share.
enum Fixtures {
    static let pds = "https://pds.example.com"
    static let issuer = "https://auth.example.com"

    static func protectedResource(resource: String = pds, servers: [String] = [issuer]) -> [String: Any] {
        ["resource": resource, "authorization_servers": servers, "scopes_supported": [] as [String]]
    }

    static func authorizationServer(issuer: String = issuer) -> [String: Any] {
        [
            "issuer": issuer,
            "authorization_endpoint": "\(issuer)/oauth/authorize",
            "token_endpoint": "\(issuer)/oauth/token",
            "pushed_authorization_request_endpoint": "\(issuer)/oauth/par",
            "revocation_endpoint": "\(issuer)/oauth/revoke",
            "require_pushed_authorization_requests": true,
            "client_id_metadata_document_supported": true,
            "authorization_response_iss_parameter_supported": true,
            "code_challenge_methods_supported": ["S256"],
            "dpop_signing_alg_values_supported": ["RS256", "ES256"],
            "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
            "scopes_supported": ["atproto", "transition:generic"],
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
        ]
    }

    static func data(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
