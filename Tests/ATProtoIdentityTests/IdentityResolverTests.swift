import ATOAuthTesting
import ATProtoIdentity
import ATProtoSyntax
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("The identity resolver checks handle, DID and PDS end to end")
struct IdentityResolverTests {
    let dnsName = "_atproto.alice.example.com"
    let plcURL = "https://plc.directory/\(Fixtures.did)"

    struct Setup {
        let transport: ScriptedTransport
        let dns: FakeDNS
        let clock: ShiftableClock
        let resolver: IdentityResolver

        init(
            transport: ScriptedTransport,
            dns: FakeDNS,
            configuration: IdentityResolver.Configuration = .init(),
            allowHTTPLoopback: Bool = false
        ) {
            self.transport = transport
            self.dns = dns
            let clock = ShiftableClock(frozenAt: Date(timeIntervalSince1970: 1_700_000_000))
            self.clock = clock
            self.resolver = IdentityResolver(
                fetcher: SafeFetcher.offline(transport, allowHTTPLoopback: allowHTTPLoopback),
                configuration: configuration,
                dns: dns,
                now: { clock.now() }
            )
        }
    }

    func standard(document: [String: Any] = Fixtures.didDocument(), txt: [String]? = nil) -> Setup {
        Setup(
            transport: ScriptedTransport([plcURL: .json(document)]),
            dns: FakeDNS([dnsName: .success(txt ?? ["did=\(Fixtures.did)"])])
        )
    }

    @Test("a handle resolves to its DID, document and PDS")
    func fromHandle() async throws {
        let setup = standard()
        let identity = try await setup.resolver.resolve("@Alice.Example.com")
        #expect(identity.did?.rawValue == Fixtures.did)
        #expect(identity.handle?.rawValue == Fixtures.handle)
        #expect(identity.pds.absoluteString == Fixtures.pds)
        #expect(identity.document?.id == Fixtures.did)
    }

    @Test("a handle whose DID document names another handle fails the bidirectional check")
    func handleNotInDocument() async throws {
        let setup = standard(document: Fixtures.didDocument(alsoKnownAs: ["at://mallory.example.com"]))
        let error = await #expect(throws: IdentityError.self) { try await setup.resolver.resolve(Fixtures.handle) }
        #expect(error?.code == .handleNotConfirmed)
        #expect(error?.category == .securityCheckFailed)
    }

    @Test("a DID resolves to its document, and its handle must resolve back to it")
    func fromDID() async throws {
        let setup = standard()
        let identity = try await setup.resolver.resolve(Fixtures.did)
        #expect(identity.handle?.rawValue == Fixtures.handle)
        #expect(identity.pds.absoluteString == Fixtures.pds)
        #expect(setup.dns.queries == [dnsName])
    }

    @Test("a DID whose handle resolves to another DID fails the bidirectional check")
    func handleResolvesElsewhere() async throws {
        let setup = standard(txt: ["did=\(Fixtures.otherDID)"])
        let error = await #expect(throws: IdentityError.self) { try await setup.resolver.resolve(Fixtures.did) }
        #expect(error?.code == .handleNotConfirmed)
    }

    @Test("a DID whose document names no handle resolves without one")
    func didWithoutHandle() async throws {
        let setup = standard(document: Fixtures.didDocument(alsoKnownAs: []))
        let identity = try await setup.resolver.resolve(Fixtures.did)
        #expect(identity.handle == nil)
        #expect(setup.dns.queries.isEmpty)
    }

    @Test("a document without a usable PDS fails even when the handle checks out")
    func noPDS() async throws {
        let setup = standard(document: Fixtures.didDocument(endpoint: "http://pds.example.com"))
        let error = await #expect(throws: IdentityError.self) { try await setup.resolver.resolve(Fixtures.handle) }
        #expect(error?.field == "serviceEndpoint")
    }

    @Test("a server URL is only normalized: no DID, no document")
    func fromURL() async throws {
        let setup = standard()
        let identity = try await setup.resolver.resolve("  https://Entryway.Example.com/ ")
        #expect(identity.pds.absoluteString == "https://entryway.example.com")
        #expect(identity.did == nil && identity.handle == nil && identity.document == nil)
        #expect(setup.transport.requests.isEmpty)
    }

    @Test(
        "input that is neither a handle, a DID nor an https URL is a usage error",
        arguments: ["not a handle", "", "ftp://pds.example.com", "http://pds.example.com", "did:plc:short", "alice"]
    )
    func badInput(_ input: String) async throws {
        let error = await #expect(throws: (any Error).self) { try await standard().resolver.resolve(input) }
        let isUsage = error is SyntaxError || (error as? IdentityError)?.category == .usage
        #expect(isUsage, "\(String(describing: error))")
    }

    @Test("a password typed into a server URL is refused without being repeated")
    func credentialsInURL() async throws {
        let error = await #expect(throws: IdentityError.self) {
            try await standard().resolver.resolve("https://alice:s3cret@pds.example.com")
        }
        #expect(error?.category == .usage)
        #expect(error?.description.contains("s3cret") == false)
    }

    @Test("results are cached below ten minutes, and reload bypasses the cache")
    func cache() async throws {
        let setup = standard()
        _ = try await setup.resolver.resolve(Fixtures.handle)
        _ = try await setup.resolver.resolve(Fixtures.handle)
        #expect(setup.transport.count(of: plcURL) == 1)
        #expect(setup.dns.queries.count == 1)
        _ = try await setup.resolver.resolve(Fixtures.handle, cachePolicy: .reload)
        #expect(setup.transport.count(of: plcURL) == 2)
        #expect(setup.dns.queries.count == 2)
        setup.clock.advance(by: 301)
        _ = try await setup.resolver.resolve(Fixtures.handle)
        #expect(setup.transport.count(of: plcURL) == 3)
    }

    @Test("a configured time to live is capped under ten minutes")
    func cappedTTL() async throws {
        let setup = Setup(
            transport: ScriptedTransport([plcURL: .json(Fixtures.didDocument())]),
            dns: FakeDNS([dnsName: .success(["did=\(Fixtures.did)"])]),
            configuration: .init(cacheTimeToLive: 3600)
        )
        _ = try await setup.resolver.resolve(Fixtures.did)
        setup.clock.advance(by: 598)
        _ = try await setup.resolver.resolve(Fixtures.did)
        #expect(setup.transport.count(of: plcURL) == 1)
        setup.clock.advance(by: 2)
        _ = try await setup.resolver.resolve(Fixtures.did)
        #expect(setup.transport.count(of: plcURL) == 2)
    }

    @Test("a sandbox: resolveHandle service, PLC directory and PDS on loopback in development mode")
    func sandbox() async throws {
        let resolveHandle = "http://localhost:2583/xrpc/com.atproto.identity.resolveHandle?handle=alice.test"
        let document = "http://127.0.0.1:2582/\(Fixtures.did)"
        let transport = ScriptedTransport([
            resolveHandle: .json(["did": Fixtures.did]),
            document: .json(Fixtures.didDocument(alsoKnownAs: ["at://alice.test"], endpoint: "http://localhost:2583")),
        ])
        let setup = Setup(
            transport: transport,
            dns: FakeDNS(),
            configuration: .init(
                plcDirectory: try url("http://127.0.0.1:2582"),
                handleResolverService: try url("http://localhost:2583")
            ),
            allowHTTPLoopback: true
        )
        let identity = try await setup.resolver.resolve("alice.test")
        #expect(identity.pds.absoluteString == "http://localhost:2583")
        #expect(setup.dns.queries.isEmpty)
    }
}
