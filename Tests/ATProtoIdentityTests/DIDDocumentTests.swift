import ATProtoIdentity
import ATProtoSyntax
import Failures
import Foundation
import Testing

@Suite("DID documents are checked for their id, handle and PDS")
struct DIDDocumentTests {
    func document(_ object: [String: Any]) throws -> DIDDocument {
        try DIDDocument(json: try Fixtures.data(object))
    }

    @Test("a good document gives its handle and a normalized PDS origin")
    func good() throws {
        let doc = try document(Fixtures.didDocument(endpoint: "https://PDS.Example.com:443/"))
        try doc.check(for: try DID(validating: Fixtures.did))
        #expect(doc.handle?.rawValue == Fixtures.handle)
        #expect(try doc.personalDataServer().absoluteString == "https://pds.example.com")
    }

    @Test("a document whose id is another DID is refused")
    func idMismatch() throws {
        let doc = try document(Fixtures.didDocument(id: Fixtures.otherDID))
        let error = #expect(throws: IdentityError.self) { try doc.check(for: try DID(validating: Fixtures.did)) }
        #expect(error?.code == .invalidDIDDocument)
        #expect(error?.field == "id")
        #expect(error?.category == .securityCheckFailed)
    }

    @Test("the handle is the first at:// entry of alsoKnownAs, or none")
    func handle() throws {
        let several = try document(
            Fixtures.didDocument(alsoKnownAs: ["https://alice.example", "at://Bob.Test", "at://alice.example.com"])
        )
        #expect(several.handle?.rawValue == "bob.test")
        #expect(try document(Fixtures.didDocument(alsoKnownAs: [])).handle == nil)
        #expect(try document(Fixtures.didDocument(alsoKnownAs: ["at://not a handle"])).handle == nil)
    }

    @Test("a document without an #atproto_pds service has no PDS")
    func noPDS() throws {
        let doc = try document(Fixtures.didDocument(serviceID: "#bsky_appview"))
        let error = #expect(throws: IdentityError.self) { try doc.personalDataServer() }
        #expect(error?.field == "service")
        #expect(error?.category == .securityCheckFailed)
    }

    @Test("the service id may repeat the DID before #atproto_pds")
    func fullServiceID() throws {
        let doc = try document(Fixtures.didDocument(serviceID: "\(Fixtures.did)#atproto_pds"))
        #expect(try doc.personalDataServer().absoluteString == Fixtures.pds)
        let other = try document(Fixtures.didDocument(serviceID: "\(Fixtures.otherDID)#atproto_pds"))
        #expect(throws: IdentityError.self) { try other.personalDataServer() }
    }

    @Test("an #atproto_pds service of another type is refused")
    func wrongType() throws {
        let doc = try document(Fixtures.didDocument(type: "BskyAppView"))
        let error = #expect(throws: IdentityError.self) { try doc.personalDataServer() }
        #expect(error?.description.contains("BskyAppView") == true)
    }

    @Test(
        "a PDS endpoint that is not an https origin is refused",
        arguments: [
            "http://pds.example.com", "pds.example.com", "https://pds.example.com/xrpc", "https://pds.example.com?x=1",
            "https://user@pds.example.com", "ftp://pds.example.com", "http://localhost:2583",
        ]
    )
    func notHTTPS(_ endpoint: String) throws {
        let doc = try document(Fixtures.didDocument(endpoint: endpoint))
        let error = #expect(throws: IdentityError.self) { try doc.personalDataServer() }
        #expect(error?.field == "serviceEndpoint")
    }

    @Test("an http loopback PDS is accepted in development mode only")
    func developmentPDS() throws {
        let doc = try document(Fixtures.didDocument(endpoint: "http://localhost:2583/"))
        #expect(try doc.personalDataServer(allowHTTPLoopback: true).absoluteString == "http://localhost:2583")
        let remote = try document(Fixtures.didDocument(endpoint: "http://pds.example.com"))
        #expect(throws: IdentityError.self) { try remote.personalDataServer(allowHTTPLoopback: true) }
    }

    @Test("decoding tolerates odd entries it does not use")
    func lenient() throws {
        let object: [String: Any] = [
            "id": Fixtures.did,
            "alsoKnownAs": [42, "at://alice.example.com"] as [Any],
            "service": [
                ["type": "NoID"],
                ["id": "#other", "type": ["A", "B"], "serviceEndpoint": ["uri": "https://x"]] as [String: Any],
                ["id": "#atproto_pds", "type": ["AtprotoPersonalDataServer"], "serviceEndpoint": Fixtures.pds]
                    as [String: Any],
            ] as [Any],
        ]
        let doc = try document(object)
        #expect(doc.handle?.rawValue == Fixtures.handle)
        #expect(doc.services.count == 2)
        #expect(try doc.personalDataServer().absoluteString == Fixtures.pds)
    }

    @Test("something that is not a DID document is refused", arguments: ["[]", "{}", #"{"id": 5}"#, "not json"])
    func notADocument(_ text: String) {
        let error = #expect(throws: IdentityError.self) { try DIDDocument(json: Data(text.utf8)) }
        #expect(error?.code == .invalidDIDDocument)
    }
}
