public import Foundation
public import HTTPTransport

/// Finds and checks a PDS's authorization server: PDS → protected resource metadata → authorization server
/// metadata, every fetch through the ``SafeFetcher`` (RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers).
public struct MetadataResolver: Sendable {
    private let fetcher: SafeFetcher

    /// Creates a resolver that fetches through `fetcher`.
    public init(fetcher: SafeFetcher) {
        self.fetcher = fetcher
    }

    /// Fetches `<pds>/.well-known/oauth-protected-resource` (exactly 200, JSON, no redirects) and checks it.
    public func protectedResourceMetadata(for pds: URL) async throws -> ProtectedResourceMetadata {
        let origin = try normalizedOrigin(pds)
        let body = try await fetch(origin, ProtectedResourceMetadata.wellKnownPath)
        return try ProtectedResourceMetadata(json: body, pds: origin, allowHTTPLoopback: allowHTTPLoopback)
    }

    /// Fetches `<issuer>/.well-known/oauth-authorization-server` (exactly 200, JSON, no redirects) and checks it,
    /// including that its `issuer` is identical to `issuer`.
    public func authorizationServerMetadata(for issuer: String) async throws -> AuthorizationServerMetadata {
        guard let issuerURL = URL(string: issuer) else {
            throw OAuthError.invalidProtectedResourceMetadata("the issuer “\(issuer)” is not a URL", field: "issuer")
        }
        let origin = try normalizedOrigin(issuerURL)
        let body = try await fetch(origin, AuthorizationServerMetadata.wellKnownPath)
        return try AuthorizationServerMetadata(json: body, issuer: issuer, allowHTTPLoopback: allowHTTPLoopback)
    }

    /// Resolves both documents for `pds`; when the server lists `protected_resources`, the PDS must be among them.
    public func resolve(pds: URL) async throws -> ResolvedAuthorizationServer {
        let origin = try normalizedOrigin(pds)
        let resource = try await protectedResourceMetadata(for: origin)
        let server = try await authorizationServerMetadata(for: resource.authorizationServer)
        if let protected = server.protectedResources, !protected.contains(resource.resource) {
            throw OAuthError.invalidAuthorizationServerMetadata(
                "“protected_resources” does not include \(resource.resource)",
                field: "protected_resources"
            )
        }
        return ResolvedAuthorizationServer(
            pds: origin,
            protectedResource: resource,
            authorizationServer: server
        )
    }

    private var allowHTTPLoopback: Bool { fetcher.configuration.allowHTTPLoopback }

    private func normalizedOrigin(_ url: URL) throws -> URL {
        do {
            return try OriginURL.normalize(url, allowHTTPLoopback: allowHTTPLoopback)
        } catch {
            throw FetchError.unsafeDestination(error.reason)
        }
    }

    private func fetch(_ origin: URL, _ path: String) async throws -> Data {
        guard let url = origin.appendingWellKnownPath(path) else {
            throw FetchError.unsafeDestination("cannot form \(path) for \(origin)")
        }
        return try await fetcher.get(url, expecting: .metadata).body
    }
}
