public import Foundation
import HTTPTransport
import WireFormat

/// An authorization server's metadata, checked as RFC 8414 §3; atproto.com/specs/oauth, Authorization Servers requires (RFC 8414 §2–§3).
///
/// After the checks, the server is known to accept client metadata documents, PAR, PKCE `S256`, DPoP `ES256`,
/// public clients (`none`), the `atproto` scope and the RFC 9207 `iss` parameter, so those flags are not kept.
public struct AuthorizationServerMetadata: Sendable, Hashable {
    /// The well-known path, appended to the issuer origin.
    public static let wellKnownPath = "/.well-known/oauth-authorization-server"

    /// The issuer identifier, identical to the one the metadata was fetched for.
    public let issuer: String
    /// Where the browser is sent (RFC 6749 §3.1).
    public let authorizationEndpoint: URL
    /// Where codes and refresh tokens are exchanged (RFC 6749 §3.2).
    public let tokenEndpoint: URL
    /// Where pushed authorization requests go (RFC 9126 §5).
    public let pushedAuthorizationRequestEndpoint: URL
    /// Where tokens are revoked (RFC 7009), when the server has it.
    public let revocationEndpoint: URL?
    /// The scopes the server supports; contains `atproto`.
    public let scopesSupported: [String]
    /// The DPoP signing algorithms supported; contains `ES256`.
    public let dpopSigningAlgValuesSupported: [String]
    /// The resources this server protects, when it lists them.
    public let protectedResources: [String]?
    /// The `prompt` values the server supports (OpenID Connect Prompt Create §4.1), when it lists them.
    public let promptValuesSupported: [String]?
    /// The client authentication methods the server supports (RFC 8414 §2); contains `none`.
    public let tokenEndpointAuthMethodsSupported: [String]

    /// Decodes and checks metadata fetched for `issuer`; throws
    /// ``OAuthError/invalidAuthorizationServerMetadata(_:field:)`` naming the failed check.
    ///
    /// Endpoints must be https URLs without a fragment whose host is not a private or special-use address
    /// (http loopback in development mode).
    public init(json: Data, issuer expectedIssuer: String, allowHTTPLoopback: Bool = false) throws {
        let wire: AuthorizationServerMetadataWire
        do {
            wire = try JSONDecoder().decode(AuthorizationServerMetadataWire.self, from: json)
        } catch {
            throw OAuthError.invalidAuthorizationServerMetadata(
                MetadataDecoding.reason(of: error),
                field: DecodingFailure.member(of: error)
            )
        }
        let checker = Checker(allowHTTPLoopback: allowHTTPLoopback)
        guard wire.issuer == expectedIssuer else {
            throw OAuthError.invalidAuthorizationServerMetadata(
                "“issuer” is “\(wire.issuer ?? "missing")”, not \(expectedIssuer) that it was fetched for",
                field: "issuer"
            )
        }
        self.issuer = expectedIssuer
        self.authorizationEndpoint = try checker.endpoint(wire.authorizationEndpoint, "authorization_endpoint")
        self.tokenEndpoint = try checker.endpoint(wire.tokenEndpoint, "token_endpoint")
        try checker.isTrue(wire.requirePushedAuthorizationRequests, "require_pushed_authorization_requests")
        self.pushedAuthorizationRequestEndpoint = try checker.endpoint(
            wire.pushedAuthorizationRequestEndpoint,
            "pushed_authorization_request_endpoint"
        )
        self.revocationEndpoint = try wire.revocationEndpoint.map { try checker.endpoint($0, "revocation_endpoint") }
        try checker.isTrue(wire.clientIDMetadataDocumentSupported, "client_id_metadata_document_supported")
        try checker.isTrue(
            wire.authorizationResponseIssParameterSupported,
            "authorization_response_iss_parameter_supported"
        )
        try checker.contains(wire.codeChallengeMethodsSupported, "S256", "code_challenge_methods_supported")
        try checker.contains(wire.dpopSigningAlgValuesSupported, "ES256", "dpop_signing_alg_values_supported")
        try checker.contains(wire.tokenEndpointAuthMethodsSupported, "none", "token_endpoint_auth_methods_supported")
        try checker.contains(wire.scopesSupported, "atproto", "scopes_supported")
        self.scopesSupported = wire.scopesSupported ?? []
        self.dpopSigningAlgValuesSupported = wire.dpopSigningAlgValuesSupported ?? []
        self.protectedResources = wire.protectedResources
        self.promptValuesSupported = wire.promptValuesSupported
        self.tokenEndpointAuthMethodsSupported = wire.tokenEndpointAuthMethodsSupported ?? []
    }

    /// The individual checks, each throwing an error that names its member.
    private struct Checker {
        let allowHTTPLoopback: Bool

        func isTrue(_ value: Bool?, _ field: String) throws {
            guard value == true else {
                throw OAuthError.invalidAuthorizationServerMetadata("“\(field)” is not true", field: field)
            }
        }

        func contains(_ values: [String]?, _ required: String, _ field: String) throws {
            guard let values, values.contains(required) else {
                throw OAuthError.invalidAuthorizationServerMetadata(
                    "“\(field)” does not include \(required)",
                    field: field
                )
            }
        }

        func endpoint(_ text: String?, _ field: String) throws -> URL {
            guard let text else {
                throw OAuthError.invalidAuthorizationServerMetadata("“\(field)” is missing", field: field)
            }
            guard let url = URL(string: text), url.fragment == nil else {
                throw OAuthError.invalidAuthorizationServerMetadata("“\(field)” is not a valid URL", field: field)
            }
            do {
                _ = try DestinationPolicy(allowHTTPLoopback: allowHTTPLoopback).checkBeforeResolving(url)
            } catch let error as FetchError {
                throw OAuthError.invalidAuthorizationServerMetadata("“\(field)”: \(error.reason)", field: field)
            }
            return url
        }
    }
}
