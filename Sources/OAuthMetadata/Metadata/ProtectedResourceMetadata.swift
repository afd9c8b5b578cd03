package import Foundation
import HTTPTransport
import WireFormat

/// A PDS's OAuth protected resource metadata, checked as RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers requires (RFC 9728 §3).
///
/// `resource` must be exactly the PDS origin the document was fetched for, and `authorization_servers` must list
/// exactly one issuer, an https origin (an http loopback origin in development mode).
package struct ProtectedResourceMetadata: Sendable, Hashable {
    /// The well-known path, appended to the PDS origin.
    package static let wellKnownPath = "/.well-known/oauth-protected-resource"

    /// The resource identifier: the PDS origin.
    package let resource: String
    /// The one authorization server's issuer identifier, exactly as listed.
    package let authorizationServer: String
    /// The `scopes_supported`, when given.
    package let scopesSupported: [String]?

    private struct Wire: Decodable {
        let resource: String?
        let authorizationServers: [String]?
        let scopesSupported: [String]?

        enum CodingKeys: String, CodingKey {
            case resource
            case authorizationServers = "authorization_servers"
            case scopesSupported = "scopes_supported"
        }
    }

    /// Decodes and checks the document fetched for `pds` (a normalized origin); throws
    /// ``MetadataError/invalidProtectedResourceMetadata(_:field:)`` naming the failed check, its member and rule.
    package init(json: Data, pds: URL, allowHTTPLoopback: Bool = false) throws {
        let examined = Self.examine(json: json, pds: pds, allowHTTPLoopback: allowHTTPLoopback)
        guard let metadata = examined.metadata else {
            let finding = examined.finding
            throw MetadataError.invalidProtectedResourceMetadata(finding.reason, field: finding.member)
        }
        self = metadata
    }

    private init(resource: String, authorizationServer: String, scopesSupported: [String]?) {
        self.resource = resource
        self.authorizationServer = authorizationServer
        self.scopesSupported = scopesSupported
    }

    /// The `resource-metadata` check of the document fetched for `pds` (RFC 9728 §3; atproto.com/specs/oauth,
    /// Authorization Servers): the metadata when it passes, and the finding either way.
    package static func examine(
        json: Data,
        pds: URL,
        allowHTTPLoopback: Bool = false
    ) -> (metadata: ProtectedResourceMetadata?, finding: MetadataFinding) {
        func failure(_ seen: String, _ member: String?) -> (ProtectedResourceMetadata?, MetadataFinding) {
            (nil, .fail(.protectedResource, seen, member: member, fix: Self.fix))
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: json)
        } catch {
            return failure(MetadataDecoding.reason(of: error), DecodingFailure.member(of: error))
        }
        let expected = pds.absoluteString
        guard let resource = wire.resource else { return failure("“resource” is missing", "resource") }
        guard resource == expected else {
            return failure("“resource” is “\(resource)”, not the PDS origin \(expected)", "resource")
        }
        let servers = wire.authorizationServers ?? []
        guard servers.count == 1, let issuer = servers.first else {
            return failure(
                "“authorization_servers” lists \(servers.count) servers; exactly one is required",
                "authorization_servers"
            )
        }
        guard let issuerURL = URL(string: issuer),
            (try? OriginURL.normalize(issuerURL, allowHTTPLoopback: allowHTTPLoopback)) != nil
        else {
            return failure(
                "“authorization_servers” names “\(issuer)”, which is not an https origin",
                "authorization_servers"
            )
        }
        let metadata = ProtectedResourceMetadata(
            resource: resource,
            authorizationServer: issuer,
            scopesSupported: wire.scopesSupported
        )
        let seen = "\(resource) names the authorization server \(issuer)"
        return (metadata, .pass(.protectedResource, seen))
    }

    /// What the PDS's operator must do when the check fails.
    package static let fix =
        "The PDS must serve its protected-resource metadata at \(wellKnownPath) (200, JSON) with “resource” its own "
        + "origin and exactly one authorization server; its operator must fix it."
}
