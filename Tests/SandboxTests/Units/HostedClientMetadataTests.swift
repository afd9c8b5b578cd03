import Foundation
import Testing

@testable import Sandbox

@Suite("Configured client metadata documents")
struct HostedClientMetadataTests {
    static let clientID = "https://myapp.example.app/client-metadata.json"

    static func document(_ changes: [String: Any] = [:]) throws -> Data {
        var metadata: [String: Any] = [
            "client_id": clientID,
            "application_type": "native",
            "token_endpoint_auth_method": "none",
            "dpop_bound_access_tokens": true,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "scope": "atproto transition:generic",
            "redirect_uris": ["app.example.myapp:/callback", "http://127.0.0.1/callback"],
        ]
        metadata.merge(changes) { _, new in new }
        return try JSONSerialization.data(withJSONObject: metadata)
    }

    @Test("a native public client is accepted, with its private-use scheme and loopback redirects on any port")
    func nativeClient() throws {
        let client = try ClientResolver.resolve(Self.clientID, documents: [Self.clientID: try Self.document()])
        #expect(client.kind == .native)
        try ClientResolver.checkRedirectURI("app.example.myapp:/callback", for: client)
        try ClientResolver.checkRedirectURI("http://127.0.0.1:61000/callback", for: client)
        #expect(throws: ClientResolver.Refusal.self) {
            try ClientResolver.checkRedirectURI("app.example.myapp:/other", for: client)
        }
    }

    @Test("a hosted client without a configured document is refused with a clear reason")
    func unknownDocument() throws {
        let error = try #require(throws: ClientResolver.Refusal.self) { try ClientResolver.resolve(Self.clientID) }
        #expect(error.reason.contains("does not fetch"))
    }

    @Test(
        "documents outside the public-client profile are refused",
        arguments: [
            ["client_id": "https://other.example/client-metadata.json"],
            ["token_endpoint_auth_method": "private_key_jwt"],
            ["dpop_bound_access_tokens": false],
            ["scope": "transition:generic"],
            ["redirect_uris": ["com.other.app:/callback"]],
            ["redirect_uris": ["app.example.myapp://callback"]],
            ["redirect_uris": ["http://localhost/callback"]],
            ["grant_types": ["refresh_token"]],
        ] as [[String: any Sendable]]
    )
    func refusals(change: [String: any Sendable]) throws {
        let document = try Self.document(change)
        #expect(throws: ClientResolver.Refusal.self) {
            try ClientResolver.resolve(Self.clientID, documents: [Self.clientID: document])
        }
    }
}
