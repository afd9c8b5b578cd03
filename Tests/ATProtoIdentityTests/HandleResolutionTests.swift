import ATOAuthTesting
import ATProtoIdentity
import ATProtoSyntax
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("Handles resolve by DNS and HTTPS together, and disagreement fails")
struct HandleResolutionTests {
    let handle: Handle
    let dnsName = "_atproto.alice.example.com"
    let wellKnown = "https://alice.example.com/.well-known/atproto-did"

    init() throws {
        handle = try Handle(validating: Fixtures.handle)
    }

    func resolve(dns: FakeDNS, transport: ScriptedTransport = ScriptedTransport()) async throws -> DID {
        try await DNSAndHTTPSHandleResolver(dns: dns, fetcher: SafeFetcher.offline(transport)).resolve(handle)
    }

    @Test("DNS alone is enough")
    func dnsOnly() async throws {
        let dns = FakeDNS([dnsName: .success(["v=other", "did=\(Fixtures.did)"])])
        #expect(try await resolve(dns: dns).rawValue == Fixtures.did)
        #expect(dns.queries == [dnsName])
    }

    @Test("HTTPS alone is enough, taking the first line trimmed")
    func httpsOnly() async throws {
        let transport = ScriptedTransport([wellKnown: .text("  \(Fixtures.did) \r\nignored")])
        #expect(try await resolve(dns: FakeDNS(), transport: transport).rawValue == Fixtures.did)
    }

    @Test("DNS and HTTPS that agree give the DID")
    func agree() async throws {
        let dns = FakeDNS([dnsName: .success(["did=\(Fixtures.did)", "did=\(Fixtures.did)"])])
        let transport = ScriptedTransport([wellKnown: .text(Fixtures.did)])
        #expect(try await resolve(dns: dns, transport: transport).rawValue == Fixtures.did)
        #expect(transport.count(of: wellKnown) == 1)
    }

    @Test("DNS and HTTPS that disagree fail the security check")
    func disagree() async throws {
        let dns = FakeDNS([dnsName: .success(["did=\(Fixtures.did)"])])
        let transport = ScriptedTransport([wellKnown: .text(Fixtures.otherDID)])
        let error = await #expect(throws: IdentityError.self) { try await resolve(dns: dns, transport: transport) }
        #expect(error?.code == .handleMethodsDisagree)
        #expect(error?.category == .securityCheckFailed)
    }

    @Test("several different DIDs in DNS fail, even when HTTPS agrees with one")
    func severalTXT() async throws {
        let dns = FakeDNS([dnsName: .success(["did=\(Fixtures.did)", "did=\(Fixtures.otherDID)"])])
        let transport = ScriptedTransport([wellKnown: .text(Fixtures.did)])
        let error = await #expect(throws: IdentityError.self) { try await resolve(dns: dns, transport: transport) }
        #expect(error?.code == .conflictingHandleRecords)
        #expect(error?.category == .securityCheckFailed)
    }

    @Test("a failing DNS falls back to HTTPS, and a failing HTTPS to DNS")
    func fallback() async throws {
        let broken = FakeDNS([dnsName: .failure(.handleResolutionFailed("SERVFAIL"))])
        let transport = ScriptedTransport([wellKnown: .text(Fixtures.did)])
        #expect(try await resolve(dns: broken, transport: transport).rawValue == Fixtures.did)
        let dns = FakeDNS([dnsName: .success(["did=\(Fixtures.did)"])])
        let failing = ScriptedTransport()
        failing.failing(wellKnown)
        #expect(try await resolve(dns: dns, transport: failing).rawValue == Fixtures.did)
        let garbage = ScriptedTransport([wellKnown: .text("<html>hello</html>")])
        #expect(try await resolve(dns: dns, transport: garbage).rawValue == Fixtures.did)
    }

    @Test("both methods failing is a resolution failure naming both")
    func bothFail() async throws {
        let broken = FakeDNS([dnsName: .failure(.handleResolutionFailed("SERVFAIL"))])
        let error = await #expect(throws: IdentityError.self) { try await resolve(dns: broken) }
        #expect(error?.code == .handleResolutionFailed)
        #expect(error?.category == .failed)
        #expect(error?.reason.contains("SERVFAIL") == true)
        #expect(error?.reason.contains("404") == true)
    }

    @Test("a DID of an unsupported method is not accepted from either method")
    func unsupportedDID() async throws {
        let dns = FakeDNS([dnsName: .success(["did=did:key:zQ3shZc2QzApp2oymGvQbzP8eKheVshBHbU4ZYjeXqwSKEn6N"])])
        let error = await #expect(throws: IdentityError.self) { try await resolve(dns: dns) }
        #expect(error?.category == .failed)
    }

    @Test("a reserved handle is refused before any query")
    func reserved() async throws {
        let dns = FakeDNS()
        let transport = ScriptedTransport()
        let local = try Handle(validating: "laptop.local")
        let error = await #expect(throws: SyntaxError.self) {
            try await DNSAndHTTPSHandleResolver(dns: dns, fetcher: SafeFetcher.offline(transport)).resolve(local)
        }
        #expect(error?.expected == .handle)
        #expect(dns.queries.isEmpty)
        #expect(transport.requests.isEmpty)
    }

    @Test("a configured resolveHandle service is asked instead, with the handle as a query parameter")
    func xrpcService() async throws {
        let endpoint = "http://localhost:2583/xrpc/com.atproto.identity.resolveHandle?handle=alice.example.com"
        let transport = ScriptedTransport([endpoint: .json(["did": Fixtures.did])])
        let resolver = XRPCHandleResolver(
            service: try url("http://localhost:2583"),
            fetcher: SafeFetcher.offline(transport, allowHTTPLoopback: true)
        )
        #expect(try await resolver.resolve(handle).rawValue == Fixtures.did)
        #expect(transport.requests.map(\.url.absoluteString) == [endpoint])
    }

    @Test("a resolveHandle error answer is a resolution failure carrying the server's error")
    func xrpcError() async throws {
        let endpoint = "https://resolver.example/xrpc/com.atproto.identity.resolveHandle?handle=alice.example.com"
        let answer = HTTPResponse.json(["error": "InvalidRequest", "message": "Unable to resolve handle"], status: 400)
        let transport = ScriptedTransport([endpoint: answer])
        let resolver = XRPCHandleResolver(
            service: try url("https://resolver.example/"),
            fetcher: SafeFetcher.offline(transport)
        )
        let error = await #expect(throws: IdentityError.self) { try await resolver.resolve(handle) }
        #expect(error?.code == .handleResolutionFailed)
        #expect(error?.status == 400)
        #expect(error?.serverError == "InvalidRequest")
        #expect(error?.serverErrorDescription == "Unable to resolve handle")
    }
}
