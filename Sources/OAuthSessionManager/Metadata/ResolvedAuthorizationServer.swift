public import Foundation

/// A PDS with its checked protected resource metadata and authorization server metadata (RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers).
public struct ResolvedAuthorizationServer: Sendable, Hashable {
    /// The PDS origin, whose text is identical to the metadata's `resource`.
    public let pds: URL
    /// The PDS's protected resource metadata.
    public let protectedResource: ProtectedResourceMetadata
    /// The authorization server's metadata.
    public let authorizationServer: AuthorizationServerMetadata

    /// Creates a resolved pair.
    public init(
        pds: URL,
        protectedResource: ProtectedResourceMetadata,
        authorizationServer: AuthorizationServerMetadata
    ) {
        self.pds = pds
        self.protectedResource = protectedResource
        self.authorizationServer = authorizationServer
    }

    /// The issuer identifier, which the callback's `iss` and the re-resolution of `sub` must match.
    public var issuer: String { authorizationServer.issuer }
}
