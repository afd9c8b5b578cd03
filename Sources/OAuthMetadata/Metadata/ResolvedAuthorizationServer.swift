package import Foundation

/// A PDS with its checked protected resource metadata and authorization server metadata (RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers).
package struct ResolvedAuthorizationServer: Sendable, Hashable {
    /// The PDS origin, whose text is identical to the metadata's `resource`.
    package let pds: URL
    /// The PDS's protected resource metadata.
    package let protectedResource: ProtectedResourceMetadata
    /// The authorization server's metadata.
    package let authorizationServer: AuthorizationServerMetadata

    /// The issuer identifier, which the callback's `iss` and the re-resolution of `sub` must match.
    package var issuer: String { authorizationServer.issuer }
}
