import Foundation
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager

extension SignInDoctor {
    /// Fetches the PDS's protected-resource metadata and its authorization server's metadata, and reports every
    /// finding of the engine's checks, the ones a sign-in stops at (RFC 9728 §3, RFC 8414 §3;
    /// atproto.com/specs/oauth, Authorization Servers).
    func examineServers(pds: URL) async -> ServerExamination {
        var result = ServerExamination()
        let resolver = MetadataResolver(fetcher: fetcher)
        let examined: (metadata: ProtectedResourceMetadata?, finding: MetadataFinding)
        do {
            let (origin, body) = try await resolver.protectedResourceDocument(for: pds)
            examined = ProtectedResourceMetadata.examine(json: body, pds: origin, allowHTTPLoopback: allowHTTPLoopback)
        } catch {
            result.findings.append(
                .fail(
                    .protectedResource,
                    error is FetchError
                        ? Self.reason(of: error)
                        : "\(pds.absoluteString)\(ProtectedResourceMetadata.wellKnownPath): \(Self.reason(of: error))",
                    fix: ProtectedResourceMetadata.fix,
                    who: .server
                )
            )
            result.findings += Self.skippedAfterResource
            return result
        }
        guard let resource = examined.metadata else {
            var finding = Finding(examined.finding)
            finding.seen = "\(pds.absoluteString)\(ProtectedResourceMetadata.wellKnownPath): \(finding.seen)"
            result.findings.append(finding)
            result.findings += Self.skippedAfterResource
            return result
        }
        let issuer = resource.authorizationServer
        result.issuer = issuer
        result.findings.append(Finding(examined.finding))
        guard let wire = await fetchServerMetadata(issuer: issuer, resolver: resolver, into: &result) else {
            result.findings += ServerExamination.skippedChecks(
                after: MetadataCheck.serverMetadata.rawValue,
                because: "the authorization server's metadata is unusable"
            )
            return result
        }
        let check = AuthorizationServerMetadataCheck(
            wire,
            issuer: issuer,
            pds: resource.resource,
            scope: configuration.scope,
            allowHTTPLoopback: allowHTTPLoopback
        )
        result.findings += check.findings.map(Finding.init)
        result.pushedRequestEndpoint = check.pushedRequestEndpoint
        return result
    }

    private static var skippedAfterResource: [Finding] {
        ServerExamination.skippedChecks(
            after: MetadataCheck.protectedResource.rawValue,
            because: "the PDS's protected-resource metadata is unusable"
        )
    }

    /// Fetches and decodes the metadata at the issuer's well-known path; `nil` when it cannot be used.
    private func fetchServerMetadata(
        issuer: String,
        resolver: MetadataResolver,
        into result: inout ServerExamination
    ) async -> AuthorizationServerMetadataWire? {
        let location = issuer + AuthorizationServerMetadata.wellKnownPath
        let fix =
            "The authorization server the PDS names must serve its metadata at \(location) (200, JSON); if it is "
            + "not the PDS's real authorization server, the PDS's operator must correct authorization_servers in "
            + "\(ProtectedResourceMetadata.wellKnownPath)."
        do {
            let body = try await resolver.authorizationServerDocument(for: issuer)
            let wire = try JSONDecoder().decode(AuthorizationServerMetadataWire.self, from: body)
            result.findings.append(
                .pass(.serverMetadata, "\(location) is JSON metadata")
            )
            return wire
        } catch let error as DecodingError {
            result.findings.append(
                .fail(
                    .serverMetadata,
                    "\(location): \(MetadataDecoding.reason(of: error))",
                    fix: fix,
                    who: .server
                )
            )
        } catch {
            result.findings.append(
                .fail(.serverMetadata, Self.reason(of: error), fix: fix, who: .server)
            )
        }
        return nil
    }
}
