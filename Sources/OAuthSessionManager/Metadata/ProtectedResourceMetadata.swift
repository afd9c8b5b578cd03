public import Foundation
import HTTPTransport
import WireFormat

/// A PDS's OAuth protected resource metadata, checked as RFC 9728 §3; atproto.com/specs/oauth, Authorization Servers requires (RFC 9728 §3).
///
/// `resource` must be exactly the PDS origin the document was fetched for, and `authorization_servers` must list
/// exactly one issuer, an https origin (an http loopback origin in development mode).
public struct ProtectedResourceMetadata: Sendable, Hashable {
    /// The well-known path, appended to the PDS origin.
    public static let wellKnownPath = "/.well-known/oauth-protected-resource"

    /// The resource identifier: the PDS origin.
    public let resource: String
    /// The one authorization server's issuer identifier, exactly as listed.
    public let authorizationServer: String
    /// The `scopes_supported`, when given.
    public let scopesSupported: [String]?

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
    /// ``OAuthError/invalidProtectedResourceMetadata(_:field:)`` naming the failed check.
    public init(json: Data, pds: URL, allowHTTPLoopback: Bool = false) throws {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: json)
        } catch {
            let field = DecodingFailure.member(of: error)
            throw OAuthError.invalidProtectedResourceMetadata(MetadataDecoding.reason(of: error), field: field)
        }
        let expected = pds.absoluteString
        guard let resource = wire.resource else {
            throw OAuthError.invalidProtectedResourceMetadata("“resource” is missing", field: "resource")
        }
        guard resource == expected else {
            throw OAuthError.invalidProtectedResourceMetadata(
                "“resource” is “\(resource)”, not the PDS origin \(expected)",
                field: "resource"
            )
        }
        let servers = wire.authorizationServers ?? []
        guard servers.count == 1, let issuer = servers.first else {
            throw OAuthError.invalidProtectedResourceMetadata(
                "“authorization_servers” lists \(servers.count) servers; exactly one is required",
                field: "authorization_servers"
            )
        }
        guard let issuerURL = URL(string: issuer),
            (try? OriginURL.normalize(issuerURL, allowHTTPLoopback: allowHTTPLoopback)) != nil
        else {
            throw OAuthError.invalidProtectedResourceMetadata(
                "the authorization server “\(issuer)” is not an https origin",
                field: "authorization_servers"
            )
        }
        self.resource = resource
        self.authorizationServer = issuer
        self.scopesSupported = wire.scopesSupported
    }
}
