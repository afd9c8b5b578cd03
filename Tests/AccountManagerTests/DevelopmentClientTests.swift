import ATOAuthTesting
import AccountManager
import Foundation
import OAuthMetadata
import OAuthSessionManager
import Sandbox
import Synchronization
import Testing

@Suite("A hosted client metadata document tried on this machine before it is deployed")
struct DevelopmentClientTests {
    /// A native-app document whose client_id is where the test server serves it.
    private func document(clientID: String, scope: String = "atproto transition:generic") throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "client_id": clientID, "application_type": "native", "client_name": "Dev app",
            "redirect_uris": ["http://127.0.0.1/callback"], "scope": scope,
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "token_endpoint_auth_method": "none", "dpop_bound_access_tokens": true,
        ])
    }

    /// Serves a native-app document declaring `scope` on loopback, and runs `body` in a sandbox that knows it.
    private func withServedDocument(
        scope: String = "atproto transition:generic",
        _ body: (_ clientID: URL, _ world: SandboxWorld) async throws -> Void
    ) async throws {
        let served = Mutex<Data>(Data())
        let handler: LoopbackHTTPServer.Handler = { _ in
            ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: served.withLock { $0 })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let clientID = server.url("/client-metadata.json")
            let json = try document(clientID: clientID.absoluteString, scope: scope)
            served.withLock { $0 = json }
            let configuration = SandboxConfiguration(
                autoApprove: true,
                clientMetadataDocuments: [clientID.absoluteString: json]
            )
            try await SandboxWorld.with(configuration) { world in try await body(clientID, world) }
        }
    }

    @Test("in development mode an http loopback client_id document is fetched, checked and signs in")
    func httpLoopbackDocument() async throws {
        try await withServedDocument { clientID, world in
            let redirect = try #require(URL(string: "http://127.0.0.1:9/callback"))
            let accounts = world.accounts()
            let client = try await accounts.hostedClient(clientID: clientID, redirectURI: redirect)
            #expect(client.clientID == clientID.absoluteString)
            let request = try await accounts.authorize("alice.test", client: client)
            let alice = try await accounts.callback(try await world.approve(request)).account
            #expect(alice.displayName == "alice.test")

            // Without development mode the same document is refused: a deployed client_id is https.
            var strict = world.configuration
            strict.allowHTTPLoopback = false
            let refused = await #expect(throws: (any Error).self) {
                try await world.accounts(configuration: strict).hostedClient(clientID: clientID, redirectURI: redirect)
            }
            #expect(refused != nil)
        }
    }

    @Test("permissions are requested as the document spells them, which the server compares as strings")
    func documentSpelling() async throws {
        let declared = "atproto repo?collection=app.bsky.feed.post&action=create"
        try await withServedDocument(scope: declared) { clientID, world in
            let redirect = try #require(URL(string: "http://127.0.0.1:9/callback"))
            let accounts = world.accounts()
            let canonical = "atproto repo:app.bsky.feed.post?action=create"
            let client = try await accounts.hostedClient(clientID: clientID, redirectURI: redirect, scope: canonical)
            #expect(client.scope == declared)
            let request = try await accounts.authorize("alice.test", client: client)
            let alice = try await accounts.callback(try await world.approve(request)).account
            #expect(alice.displayName == "alice.test")
            #expect(alice.missingScope == nil)
        }
    }
}
