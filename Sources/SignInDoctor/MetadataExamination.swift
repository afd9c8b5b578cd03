import Foundation
import HTTPTransport
import OAuthSessionManager

extension SignInDoctor {
    /// Fetches the PDS's protected-resource metadata and its authorization server's metadata, and checks every
    /// member the AT Protocol profile requires, each on its own (atproto.com/specs/oauth, Authorization Servers).
    func examineServers(pds: URL) async -> ServerExamination {
        var result = ServerExamination()
        let resource: ProtectedResourceMetadata
        do {
            resource = try await MetadataResolver(fetcher: fetcher).protectedResourceMetadata(for: pds)
        } catch {
            result.findings.append(
                .fail(
                    "resource-metadata",
                    error is FetchError
                        ? Self.reason(of: error)
                        : "\(pds.absoluteString)\(ProtectedResourceMetadata.wellKnownPath): \(Self.reason(of: error))",
                    rule: Rule.protectedResource,
                    fix:
                        "The PDS must serve its protected-resource metadata at \(ProtectedResourceMetadata.wellKnownPath) "
                        + "(200, JSON) with “resource” its own origin and exactly one authorization server; its "
                        + "operator must fix it.",
                    who: .server
                )
            )
            result.findings += ServerExamination.skippedChecks(
                after: "resource-metadata",
                because: "the PDS's protected-resource metadata is unusable"
            )
            return result
        }
        let issuer = resource.authorizationServer
        result.issuer = issuer
        result.findings.append(
            .pass(
                "resource-metadata",
                "\(resource.resource) names the authorization server \(issuer)",
                rule: Rule.protectedResource
            )
        )
        guard let wire = await fetchServerMetadata(issuer: issuer, into: &result) else {
            result.findings += ServerExamination.skippedChecks(
                after: "as-metadata",
                because: "the authorization server's metadata is unusable"
            )
            return result
        }
        let checks = ServerMetadataChecks(
            wire: wire,
            issuer: issuer,
            pds: resource.resource,
            scope: configuration.scope,
            policy: DestinationPolicy(allowHTTPLoopback: allowHTTPLoopback)
        )
        result.findings += checks.findings
        result.pushedRequestEndpoint = checks.pushedRequestEndpoint
        return result
    }

    /// Fetches and decodes the metadata at the issuer's well-known path; `nil` when it cannot be used.
    private func fetchServerMetadata(
        issuer: String,
        into result: inout ServerExamination
    ) async -> AuthorizationServerMetadataWire? {
        let location = issuer + AuthorizationServerMetadata.wellKnownPath
        let fix =
            "The authorization server the PDS names must serve its metadata at \(location) (200, JSON); if it is "
            + "not the PDS's real authorization server, the PDS's operator must correct authorization_servers in "
            + "\(ProtectedResourceMetadata.wellKnownPath)."
        do {
            guard let issuerURL = URL(string: issuer),
                let origin = try? OriginURL.normalize(issuerURL, allowHTTPLoopback: allowHTTPLoopback),
                let url = origin.appendingWellKnownPath(AuthorizationServerMetadata.wellKnownPath)
            else {
                throw FetchError.unsafeDestination("“\(issuer)” is not an https origin")
            }
            let body = try await fetcher.get(url, expecting: .metadata).body
            let wire = try JSONDecoder().decode(AuthorizationServerMetadataWire.self, from: body)
            result.findings.append(.pass("as-metadata", "\(location) is JSON metadata", rule: Rule.serverMetadata))
            return wire
        } catch let error as DecodingError {
            result.findings.append(
                .fail(
                    "as-metadata",
                    "\(location): \(MetadataDecoding.reason(of: error))",
                    rule: Rule.serverMetadata,
                    fix: fix,
                    who: .server
                )
            )
        } catch {
            result.findings.append(
                .fail("as-metadata", Self.reason(of: error), rule: Rule.serverMetadata, fix: fix, who: .server)
            )
        }
        return nil
    }
}
