import ATOAuthTesting
import ATProtoIdentity
import ATProtoSyntax
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("DID documents are fetched from the PLC directory or the did:web host")
struct DIDResolverTests {
    let plcURL = "https://plc.directory/\(Fixtures.did)"

    @Test("document URLs follow the method")
    func urls() throws {
        let resolver = DIDResolver(fetcher: SafeFetcher.offline(ScriptedTransport()))
        #expect(try resolver.documentURL(for: try DID(validating: Fixtures.did)).absoluteString == plcURL)
        #expect(
            try resolver.documentURL(for: try DID(validating: "did:web:example.com")).absoluteString
                == "https://example.com/.well-known/did.json"
        )
        let custom = DIDResolver(
            fetcher: SafeFetcher.offline(ScriptedTransport()),
            plcDirectory: try url("https://plc.test/")
        )
        #expect(
            try custom.documentURL(for: try DID(validating: Fixtures.did)).absoluteString
                == "https://plc.test/\(Fixtures.did)"
        )
    }

    @Test("a localhost did:web port needs development mode, and then uses http")
    func localhostPort() throws {
        let did = try DID(validating: "did:web:localhost%3A1234")
        let production = DIDResolver(fetcher: SafeFetcher.offline(ScriptedTransport()))
        let error = #expect(throws: FetchError.self) { try production.documentURL(for: did) }
        #expect(error?.category == .securityCheckFailed)
        let development = DIDResolver(fetcher: SafeFetcher.offline(ScriptedTransport(), allowHTTPLoopback: true))
        #expect(try development.documentURL(for: did).absoluteString == "http://localhost:1234/.well-known/did.json")
    }

    @Test("a fetched document is decoded and its id checked")
    func resolve() async throws {
        let transport = ScriptedTransport([
            plcURL: .json(Fixtures.didDocument(), contentType: "application/did+ld+json")
        ])
        let doc = try await DIDResolver(fetcher: SafeFetcher.offline(transport)).resolve(
            try DID(validating: Fixtures.did)
        )
        #expect(doc.id == Fixtures.did)
        let wrong = ScriptedTransport([plcURL: .json(Fixtures.didDocument(id: Fixtures.otherDID))])
        let error = await #expect(throws: IdentityError.self) {
            try await DIDResolver(fetcher: SafeFetcher.offline(wrong)).resolve(try DID(validating: Fixtures.did))
        }
        #expect(error?.field == "id")
    }

    @Test("an unknown DID is a resolution failure with the status")
    func notFound() async throws {
        let error = await #expect(throws: IdentityError.self) {
            try await DIDResolver(fetcher: SafeFetcher.offline(ScriptedTransport())).resolve(
                try DID(validating: Fixtures.did)
            )
        }
        #expect(error?.code == .didResolutionFailed)
        #expect(error?.status == 404)
        #expect(error?.category == .failed)
    }

    @Test("a redirected document is refused as a security failure")
    func redirect() async throws {
        let transport = ScriptedTransport([
            plcURL: HTTPResponse(status: 302, headers: ["Location": "https://elsewhere.example/"])
        ])
        let error = await #expect(throws: FetchError.self) {
            try await DIDResolver(fetcher: SafeFetcher.offline(transport)).resolve(try DID(validating: Fixtures.did))
        }
        #expect(error?.category == .securityCheckFailed)
    }
}
