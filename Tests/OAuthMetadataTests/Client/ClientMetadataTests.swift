import Foundation
import Testing
import WireFormat

@testable import ATProtoIdentity
@testable import ATProtoSyntax
@testable import HTTPTransport
@testable import OAuthMetadata

@Suite("Client identity")
struct ClientMetadataTests {
    static let projectRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func document(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> Data {
        let data = try Data(contentsOf: Self.projectRoot.appendingPathComponent("client-metadata.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test("the committed client-metadata.json is a valid native app document")
    func committedDocument() throws {
        let metadata = try ClientMetadata(json: try document())
        #expect(metadata.applicationType == "native")
        #expect(metadata.redirectURIs.contains { $0.hasPrefix("http://127.0.0.1") })
        #expect(metadata.redirectURIs.contains { $0.hasPrefix("app.example.atoauth:/") })
        let client = try OAuthClient.hosted(
            metadata,
            redirectURI: try #require(URL(string: "http://127.0.0.1:52345/callback"))
        )
        #expect(client.clientID == metadata.clientID)
    }

    @Test(
        "each rule of a native client document is enforced",
        arguments: [
            ("client_id", #""http://atoauth.example.app/client-metadata.json""#),
            ("application_type", #""web""#),
            ("token_endpoint_auth_method", #""private_key_jwt""#),
            ("dpop_bound_access_tokens", "false"),
            ("grant_types", #"["authorization_code"]"#),
            ("response_types", #"["token"]"#),
            ("scope", #""transition:generic""#),
            ("redirect_uris", "[]"),
            ("redirect_uris", #"["http://localhost/callback"]"#),
            ("redirect_uris", #"["https://atoauth.example.app/callback"]"#),
            ("redirect_uris", #"["com.other.app:/callback"]"#),
            ("redirect_uris", #"["app.example.atoauth://callback"]"#),
        ]
    )
    func rules(field: String, json: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let data = try document { $0[field] = value }
        let error = #expect(throws: MetadataError.self) { try ClientMetadata(json: data) }
        #expect(error?.field == field)
    }

    @Test("a document fetched from another URL than its client_id is refused, naming both")
    func clientIDMismatch() throws {
        let error = #expect(throws: MetadataError.self) {
            try ClientMetadata(json: try document(), expectedClientID: "https://evil.example/client-metadata.json")
        }
        #expect(error?.reason.contains("not the document's URL https://evil.example/client-metadata.json") == true)
        #expect(
            error?.reason.contains("https://atoauth.example.app/client-metadata.json") == true,
            "\(error?.reason ?? "")"
        )
    }

    @Test(
        "a member of the wrong type is named as the checker names it, not the whole document",
        arguments: [("scope", "42"), ("client_id", "null"), ("redirect_uris", #""http://127.0.0.1/callback""#)]
    )
    func wrongType(field: String, json: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let data = try document { $0[field] = value }
        let error = #expect(throws: MetadataError.self) { try ClientMetadata(json: data) }
        #expect(error?.field == field, "\(error?.reason ?? "")")
        guard field != "client_id" else { return }
        // Named even beside a problem the checker meets first, the decoder's member is the one that broke.
        let both = try document {
            $0[field] = value
            $0["grant_types"] = ["implicit"]
        }
        let named = #expect(throws: MetadataError.self) { try ClientMetadata(json: both) }
        #expect(named?.field == field, "\(named?.reason ?? "")")
    }

    @Test("the loopback client_id is http://localhost with the encoded redirect URI and scope, no port")
    func loopbackClientID() throws {
        let client = try OAuthClient.loopback(
            redirectURI: try #require(URL(string: "http://127.0.0.1:49152/callback")),
            scope: "transition:generic"
        )
        #expect(
            client.clientID
                == "http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&scope=atproto%20transition%3Ageneric"
        )
        #expect(client.redirectURI.absoluteString == "http://127.0.0.1:49152/callback")
        #expect(client.scope == "atproto transition:generic")
        #expect(throws: MetadataError.self) {
            try OAuthClient.loopback(redirectURI: try #require(URL(string: "http://localhost:49152/callback")))
        }
    }

    @Test("form encoding escapes everything but unreserved characters and decodes back")
    func formEncoding() throws {
        let pairs = [("a b", "x+y&z=/é"), ("state", "-._~")]
        let encoded = FormEncoding.encode(pairs)
        #expect(encoded == "a%20b=x%2By%26z%3D%2F%C3%A9&state=-._~")
        #expect(try FormEncoding.parsePairs(encoded).map { [$0.0, $0.1] } == pairs.map { [$0.0, $0.1] })
    }
}
