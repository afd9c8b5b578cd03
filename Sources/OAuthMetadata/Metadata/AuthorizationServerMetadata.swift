package import Foundation
import WireFormat

/// An authorization server's metadata, checked as RFC 8414 §3; atproto.com/specs/oauth, Authorization Servers requires (RFC 8414 §2–§3).
///
/// After the checks, the server is known to accept client metadata documents, PAR, PKCE `S256`, DPoP `ES256`,
/// public clients (`none`), the `atproto` scope and the RFC 9207 `iss` parameter, so those flags are not kept.
package struct AuthorizationServerMetadata: Sendable, Hashable {
    /// The well-known path, appended to the issuer origin.
    package static let wellKnownPath = "/.well-known/oauth-authorization-server"

    /// The issuer identifier, identical to the one the metadata was fetched for.
    package let issuer: String
    /// Where the browser is sent (RFC 6749 §3.1).
    package let authorizationEndpoint: URL
    /// Where codes and refresh tokens are exchanged (RFC 6749 §3.2).
    package let tokenEndpoint: URL
    /// Where pushed authorization requests go (RFC 9126 §5).
    package let pushedAuthorizationRequestEndpoint: URL
    /// Where tokens are revoked (RFC 7009), when the server has it.
    package let revocationEndpoint: URL?
    /// The scopes the server supports; contains `atproto`.
    package let scopesSupported: [String]
    /// The DPoP signing algorithms supported; contains `ES256`.
    package let dpopSigningAlgValuesSupported: [String]
    /// The resources this server protects, when it lists them.
    package let protectedResources: [String]?
    /// The `prompt` values the server supports (OpenID Connect Prompt Create §4.1), when it lists them.
    package let promptValuesSupported: [String]?
    /// The client authentication methods the server supports (RFC 8414 §2); contains `none`.
    package let tokenEndpointAuthMethodsSupported: [String]

    /// Decodes and checks metadata fetched for `issuer`, with the checks of ``AuthorizationServerMetadataCheck``;
    /// throws ``MetadataError/invalidAuthorizationServerMetadata(_:field:)`` for the first that fails, naming its member
    /// and rule.
    ///
    /// Endpoints must be https URLs without a fragment whose host is not a private or special-use address
    /// (http loopback in development mode).
    package init(json: Data, issuer expectedIssuer: String, allowHTTPLoopback: Bool = false) throws {
        try self.init(json: json, issuer: expectedIssuer, resource: nil, allowHTTPLoopback: allowHTTPLoopback)
    }

    /// Decodes and checks metadata fetched for `issuer` on behalf of the PDS `resource` (its resource identifier):
    /// when the server lists `protected_resources`, they must include it (RFC 9728 §4); `nil` leaves them unchecked.
    package init(json: Data, issuer expectedIssuer: String, resource: String?, allowHTTPLoopback: Bool) throws {
        let wire: AuthorizationServerMetadataWire
        do {
            wire = try JSONDecoder().decode(AuthorizationServerMetadataWire.self, from: json)
        } catch {
            throw MetadataError.invalidAuthorizationServerMetadata(
                MetadataDecoding.reason(of: error),
                field: DecodingFailure.member(of: error)
            )
        }
        let check = AuthorizationServerMetadataCheck(
            wire,
            issuer: expectedIssuer,
            pds: resource,
            allowHTTPLoopback: allowHTTPLoopback
        )
        if let failure = check.findings.firstFailure {
            throw MetadataError.invalidAuthorizationServerMetadata(failure.reason, field: failure.member)
        }
        // Every endpoint passed its check above; these guards only keep the compiler's promise.
        guard let authorizationEndpoint = check.usableEndpoint(wire.authorizationEndpoint),
            let tokenEndpoint = check.usableEndpoint(wire.tokenEndpoint),
            let pushedRequestEndpoint = check.pushedRequestEndpoint
        else {
            throw MetadataError.invalidAuthorizationServerMetadata("an endpoint is unusable", field: nil)
        }
        self.issuer = expectedIssuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.pushedAuthorizationRequestEndpoint = pushedRequestEndpoint
        self.revocationEndpoint = check.usableEndpoint(wire.revocationEndpoint)
        self.scopesSupported = wire.scopesSupported ?? []
        self.dpopSigningAlgValuesSupported = wire.dpopSigningAlgValuesSupported ?? []
        self.protectedResources = wire.protectedResources
        self.promptValuesSupported = wire.promptValuesSupported
        self.tokenEndpointAuthMethodsSupported = wire.tokenEndpointAuthMethodsSupported ?? []
    }
}
