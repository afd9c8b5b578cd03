package import Foundation
package import HTTPTransport

/// Finds and checks a PDS's authorization server: PDS → protected resource metadata → authorization server
/// metadata, every fetch through the ``SafeFetcher`` (RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers).
package struct MetadataResolver: Sendable {
    private let fetcher: SafeFetcher

    /// Creates a resolver that fetches through `fetcher`.
    package init(fetcher: SafeFetcher) {
        self.fetcher = fetcher
    }

    /// Fetches `<pds>/.well-known/oauth-protected-resource` (exactly 200, JSON, no redirects) and checks it.
    package func protectedResourceMetadata(for pds: URL) async throws -> ProtectedResourceMetadata {
        let (origin, body) = try await protectedResourceDocument(for: pds)
        return try ProtectedResourceMetadata(json: body, pds: origin, allowHTTPLoopback: allowHTTPLoopback)
    }

    /// Fetches `<issuer>/.well-known/oauth-authorization-server` (exactly 200, JSON, no redirects) and checks it,
    /// including that its `issuer` is identical to `issuer`.
    package func authorizationServerMetadata(for issuer: String) async throws -> AuthorizationServerMetadata {
        try await authorizationServerMetadata(for: issuer, resource: nil)
    }

    /// Resolves both documents for `pds`; when the server lists `protected_resources`, the PDS must be among them
    /// (RFC 9728 §4).
    package func resolve(pds: URL) async throws -> ResolvedAuthorizationServer {
        let origin = try normalizedOrigin(pds)
        let resource = try await protectedResourceMetadata(for: origin)
        let server = try await authorizationServerMetadata(
            for: resource.authorizationServer,
            resource: resource.resource
        )
        return ResolvedAuthorizationServer(
            pds: origin,
            protectedResource: resource,
            authorizationServer: server
        )
    }

    /// The checked metadata of `issuer`, for the PDS `resource` when it is known.
    private func authorizationServerMetadata(
        for issuer: String,
        resource: String?
    ) async throws -> AuthorizationServerMetadata {
        let body = try await authorizationServerDocument(for: issuer)
        return try AuthorizationServerMetadata(
            json: body,
            issuer: issuer,
            resource: resource,
            allowHTTPLoopback: allowHTTPLoopback
        )
    }

    /// The PDS's normalized origin and its protected resource metadata as served, unchecked; for the doctor, which
    /// reports every finding of ``ProtectedResourceMetadata/examine(json:pds:allowHTTPLoopback:)``.
    package func protectedResourceDocument(for pds: URL) async throws -> (origin: URL, body: Data) {
        let origin = try normalizedOrigin(pds)
        return (origin, try await fetch(origin, ProtectedResourceMetadata.wellKnownPath))
    }

    /// The metadata of `issuer` as served, unchecked; for the doctor, which reports every finding of
    /// ``AuthorizationServerMetadataCheck``.
    package func authorizationServerDocument(for issuer: String) async throws -> Data {
        guard let issuerURL = URL(string: issuer) else {
            throw MetadataError.invalidProtectedResourceMetadata("the issuer “\(issuer)” is not a URL", field: "issuer")
        }
        return try await fetch(try normalizedOrigin(issuerURL), AuthorizationServerMetadata.wellKnownPath)
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
