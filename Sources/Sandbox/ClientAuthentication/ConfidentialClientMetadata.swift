import Foundation

/// The client authentication members of a client metadata document (RFC 7591 §2; atproto.com/specs/oauth, Client
/// Authentication): `token_endpoint_auth_method` `none` for a public client, or `private_key_jwt` for a confidential
/// one, which also needs `application_type` `web`, `token_endpoint_auth_signing_alg` `ES256`, and exactly one of
/// `jwks` (a JWK Set given inline) and `jwks_uri` (`https`, or `http` to 127.0.0.1 or [::1] for development).
enum ConfidentialClientMetadata {
    /// The authentication method `metadata` declares, with its keys.
    ///
    /// - Parameters:
    ///   - metadata: the document.
    ///   - clientID: its `client_id`, which names the inline JWKS in refusals.
    ///   - applicationType: its `application_type`: a `native` client cannot be confidential, as the reference server
    ///     holds (@atproto/oauth-provider).
    /// - Returns: ``ClientAuthenticationMethod/publicClient``, or `private_key_jwt` with the client's keys.
    /// - Throws: a refusal naming the member that is wrong.
    static func authentication(
        _ metadata: [String: Any],
        clientID: String,
        applicationType: String
    ) throws(ClientResolver.Refusal) -> ClientAuthenticationMethod {
        typealias Refusal = ClientResolver.Refusal
        // RFC 7591 §2: an absent method means client_secret_basic, which no atproto client may use.
        let method = metadata["token_endpoint_auth_method"] as? String ?? "client_secret_basic"
        switch method {
        case "none":
            return .publicClient
        case "private_key_jwt":
            break
        default:
            throw Refusal(
                reason: "token_endpoint_auth_method must be none (a public client) or private_key_jwt (a confidential "
                    + "client), not \(method)"
            )
        }
        guard applicationType == "web" else {
            throw Refusal(
                reason: "a native client cannot be confidential: private_key_jwt needs application_type web"
            )
        }
        guard metadata["token_endpoint_auth_signing_alg"] as? String == "ES256" else {
            throw Refusal(reason: "a confidential client's token_endpoint_auth_signing_alg must be ES256")
        }
        switch (metadata["jwks"], metadata["jwks_uri"]) {
        case (.none, .none):
            throw Refusal(reason: "a confidential client needs jwks or jwks_uri for its public keys")
        case (.some, .some):
            throw Refusal(reason: "a client gives jwks or jwks_uri, not both")
        case (.some(let value), .none):
            guard let jwks = value as? [String: Any] else {
                throw Refusal(reason: "jwks must be a JSON object {\"keys\": […]}")
            }
            return .privateKeyJWT(.inline(try ClientKeySet(jwks: jwks, source: clientID)))
        case (.none, .some(let value)):
            guard let uri = value as? String, isAcceptableJWKSURI(uri) else {
                throw Refusal(
                    reason: "jwks_uri must be an https URL, or for development an http URL to 127.0.0.1 or [::1]"
                )
            }
            return .privateKeyJWT(.uri(uri))
        }
    }

    /// Whether a `jwks_uri` is `https` with a host, or `http` to a loopback IP, without a fragment or user info.
    private static func isAcceptableJWKSURI(_ uri: String) -> Bool {
        guard let components = URLComponents(string: uri), components.fragment == nil, components.user == nil
        else { return false }
        if ClientResolver.isLoopbackIP(uri) { return true }
        return components.scheme == "https" && !(components.host ?? "").isEmpty
    }
}
