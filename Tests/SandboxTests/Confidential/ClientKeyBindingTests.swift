import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("A confidential session is bound to the key of its code exchange, and ends when the key leaves the JWKS")
struct ClientKeyBindingTests {
    @Test("a refresh signed with another key of the JWKS is invalid_grant and ends the session, as at the reference")
    func refreshWithAnotherKey() async throws {
        let first = TestSigningKey(kid: "key-1")
        let second = TestSigningKey(kid: "key-2")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [first, second])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: first)
            let refused = try await client.refresh(tokens.refreshToken, key: second)
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_grant")
            let description = try refused.json()["error_description"] as? String
            #expect(description?.contains("the session is bound to key key-1") == true)
            #expect(sandbox.server.counters.rejections(.clientKeyMismatch) == 1)
            #expect(sandbox.server.counters.sessionsEndedByKeyRemoval == 0)

            let again = try await client.refresh(tokens.refreshToken, key: first)
            #expect(again.errorCode == "invalid_grant", "the session should have ended: \(again.text)")
            #expect(try await client.getSession(tokens.accessToken).status == 401)
        }
    }

    @Test("a code exchange signed with another key than the PAR's is invalid_grant, as at the reference server")
    func bindingFromPAR() async throws {
        let first = TestSigningKey(kid: "key-1")
        let second = TestSigningKey(kid: "key-2")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [first, second])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let flow = FlowSecrets()
            let code = try await client.authorizationCode(flow, key: second)
            let refused = try await client.exchange(code, flow, authentication: try client.authentication(first))
            #expect(refused.errorCode == "invalid_grant")
            let description = try refused.json()["error_description"] as? String
            #expect(description?.contains("another key than the PAR's (key-2)") == true)
            #expect(sandbox.server.counters.rejections(.clientKeyMismatch) == 1)
            #expect(sandbox.server.counters.authorizationCodeGrantsSucceeded == 0)
        }
    }

    @Test("once the session's key leaves the configured document's JWKS, the next refresh ends the session")
    func keyRemovedFromConfiguredDocument() async throws {
        try await Self.withKeyRemovedAfterSignIn { sandbox, client, tokens, second in
            let ended = try await client.refresh(tokens.refreshToken, key: second)
            #expect(ended.status == 400)
            #expect(ended.errorCode == "invalid_grant")
            let description = try ended.json()["error_description"] as? String
            #expect(description?.contains("key-1") == true)
            #expect(sandbox.server.counters.sessionsEndedByKeyRemoval == 1)
            #expect(sandbox.server.counters.rejections(.clientKeyRemoved) == 1)
            #expect(try await client.getSession(tokens.accessToken).status == 401)
            let again = try await client.refresh(tokens.refreshToken, key: second)
            #expect(again.errorCode == "invalid_grant")
            #expect(sandbox.server.counters.sessionsEndedByKeyRemoval == 1)
        }
    }

    @Test("a refresh with another DPoP key ends the session before its removed client key is looked at")
    func removedKeyWithAnotherDPoPKey() async throws {
        try await Self.withKeyRemovedAfterSignIn { sandbox, client, tokens, second in
            let stranger = ConfidentialTestClient(sandbox)
            let refused = try await stranger.refresh(tokens.refreshToken, key: second)
            #expect(refused.errorCode == "invalid_grant")
            let description = try refused.json()["error_description"] as? String
            #expect(description == "the DPoP proof's key is not the session's key")
            #expect(sandbox.server.counters.rejections(.dpopKeyMismatch) == 1)

            let ended = try await client.refresh(tokens.refreshToken, key: second)
            #expect(ended.errorCode == "invalid_grant")
            #expect(sandbox.server.counters.sessionsEndedByKeyRemoval == 0)
        }
    }

    @Test("a served JWKS is cached: a removed key counts once the cache is reset, and then ends the session")
    func keyRemovedFromServedJWKS() async throws {
        let first = TestSigningKey(kid: "key-1")
        let second = TestSigningKey(kid: "key-2")
        let served = ServedDocuments()
        try await LoopbackHTTPServer.withServer(handler: served.handler) { server in
            let clientID = server.url("/client-metadata.json").absoluteString
            let redirectURI = "http://127.0.0.1:54321/callback"
            let document = try ConfidentialDocuments.document(
                clientID: clientID,
                redirectURI: redirectURI,
                jwksURI: server.url("/jwks.json").absoluteString
            )
            served.set("/client-metadata.json", .json(document))
            served.set("/jwks.json", .json(try ConfidentialDocuments.jwksDocument([first])))
            try await withSandbox { sandbox in
                let client = ConfidentialTestClient(sandbox, clientID: clientID, redirectURI: redirectURI)
                let tokens = try await client.signIn(key: first)

                served.set("/jwks.json", .json(try ConfidentialDocuments.jwksDocument([second])))
                let cached = try await client.refresh(tokens.refreshToken, key: first)
                #expect(cached.status == 200, "the cached JWKS still holds key-1: \(cached.text)")
                #expect(try await Self.resetClientCache(sandbox) == 2)

                let ended = try await client.refresh(try Tokens(cached).refreshToken, key: first)
                #expect(ended.status == 400)
                #expect(ended.errorCode == "invalid_grant")
                #expect(server.requests.filter { $0.path == "/jwks.json" }.count == 2)

                let counters = try await sandbox.transport.send(
                    HTTPRequest(url: sandbox.endpoints.authorizationServer.appending(path: "_sandbox/counters"))
                )
                let json = try counters.json()
                #expect(json["sessionsEndedByKeyRemoval"] as? Int == 1)
                #expect(json["clientAssertionsAccepted"] as? Int == 3)
                #expect(json["clientAssertionsRefused"] as? Int == 0)
            }
        }
    }

    /// Signs in signed by key-1, then leaves only key-2 in the configured document's JWKS (the cache reset, so the
    /// sandbox reads it again); runs `body` with the sandbox, the client, its tokens and key-2.
    static func withKeyRemovedAfterSignIn(
        _ body: (SandboxHarness, ConfidentialTestClient, Tokens, TestSigningKey) async throws -> Void
    ) async throws {
        let first = TestSigningKey(kid: "key-1")
        let second = TestSigningKey(kid: "key-2")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [first, second])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: first)
            let document = try ConfidentialDocuments.document(keys: [second])
            sandbox.server.updateConfiguration { $0.clientMetadataDocuments[ConfidentialDocuments.clientID] = document }
            #expect(try await Self.resetClientCache(sandbox) == 0)
            try await body(sandbox, client, tokens, second)
        }
    }

    /// `POST /_sandbox/client-cache/reset`; returns how many documents it dropped.
    static func resetClientCache(_ sandbox: SandboxHarness) async throws -> Int? {
        let response = try await sandbox.transport.send(
            HTTPRequest(
                method: .post,
                url: sandbox.endpoints.authorizationServer.appending(path: "_sandbox/client-cache/reset")
            )
        )
        #expect(response.status == 200)
        return try response.json()["dropped"] as? Int
    }
}
