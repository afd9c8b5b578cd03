import ATOAuthTesting
import Failures
import Foundation
import HTTPTransport
import OAuthMetadata
import Testing

@Suite("The metadata resolver goes from a PDS to its checked authorization server")
struct MetadataResolverTests {
    let prmURL = "\(Fixtures.pds)/.well-known/oauth-protected-resource"
    let asURL = "\(Fixtures.issuer)/.well-known/oauth-authorization-server"

    func resolve(
        _ transport: ScriptedTransport,
        addresses: [String: [String]] = [:]
    ) async throws
        -> ResolvedAuthorizationServer
    {
        try await MetadataResolver(fetcher: SafeFetcher.offline(transport, addresses: addresses)).resolve(
            pds: try url(Fixtures.pds)
        )
    }

    @Test("PDS, protected resource metadata and authorization server metadata chain together")
    func chain() async throws {
        let transport = ScriptedTransport([
            prmURL: .json(Fixtures.protectedResource()),
            asURL: .json(Fixtures.authorizationServer()),
        ])
        let resolved = try await resolve(transport)
        #expect(resolved.issuer == Fixtures.issuer)
        #expect(resolved.pds.absoluteString == Fixtures.pds)
        #expect(transport.requests.map(\.url.absoluteString) == [prmURL, asURL])
    }

    @Test("authorization server metadata whose issuer differs from the PRM's is refused")
    func issuerMismatch() async throws {
        let transport = ScriptedTransport([
            prmURL: .json(Fixtures.protectedResource()),
            asURL: .json(Fixtures.authorizationServer(issuer: "https://evil.example.com")),
        ])
        let error = await #expect(throws: MetadataError.self) { try await resolve(transport) }
        #expect(error?.field == "issuer")
        #expect(error?.category == .securityCheckFailed)
    }

    @Test("a hostile PRM pointing at another resource or two servers is refused before any AS fetch")
    func hostilePRM() async throws {
        for hostile in [
            Fixtures.protectedResource(resource: "https://evil.example.com"),
            Fixtures.protectedResource(servers: [Fixtures.issuer, "https://evil.example.com"]),
        ] {
            let transport = ScriptedTransport([prmURL: .json(hostile), asURL: .json(Fixtures.authorizationServer())])
            await #expect(throws: MetadataError.self) { try await resolve(transport) }
            #expect(transport.count(of: asURL) == 0)
        }
    }

    @Test("an authorization server that lists protected resources must list the PDS")
    func protectedResources() async throws {
        var server = Fixtures.authorizationServer()
        server["protected_resources"] = ["https://other.example.com"]
        let transport = ScriptedTransport([prmURL: .json(Fixtures.protectedResource()), asURL: .json(server)])
        let error = await #expect(throws: MetadataError.self) { try await resolve(transport) }
        #expect(error?.field == "protected_resources")
        server["protected_resources"] = [Fixtures.pds]
        transport.on(asURL, .json(server))
        #expect(try await resolve(transport).issuer == Fixtures.issuer)
    }

    @Test("a redirected protected resource metadata request is refused")
    func redirect() async throws {
        let transport = ScriptedTransport([
            prmURL: HTTPResponse(status: 301, headers: ["Location": "https://evil.example.com/"])
        ])
        let error = await #expect(throws: FetchError.self) { try await resolve(transport) }
        #expect(error?.code == .redirectRefused)
    }

    @Test("an authorization server on a private address is never contacted")
    func privateIssuer() async throws {
        let transport = ScriptedTransport([
            prmURL: .json(Fixtures.protectedResource()),
            asURL: .json(Fixtures.authorizationServer()),
        ])
        let error = await #expect(throws: FetchError.self) {
            try await resolve(transport, addresses: ["auth.example.com": ["192.168.1.10"]])
        }
        #expect(error?.category == .securityCheckFailed)
        #expect(transport.count(of: asURL) == 0)
    }

    @Test("a PDS without OAuth metadata is a plain failure")
    func missing() async throws {
        let error = await #expect(throws: FetchError.self) { try await resolve(ScriptedTransport()) }
        #expect(error?.status == 404)
        #expect(error?.category == .failed)
    }
}
