import ATOAuthTesting
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Confidential clients (private_key_jwt) sign in, refresh and revoke")
struct ConfidentialSignInTests {
    @Test("the metadata lists none and private_key_jwt, with ES256 assertions")
    func metadata() async throws {
        try await withSandbox { sandbox in
            let response = try await sandbox.transport.send(
                HTTPRequest(
                    url: sandbox.endpoints.authorizationServer.appending(path: ".well-known/oauth-authorization-server")
                )
            )
            let metadata = try response.json()
            #expect(metadata["token_endpoint_auth_methods_supported"] as? [String] == ["none", "private_key_jwt"])
            #expect(metadata["token_endpoint_auth_signing_alg_values_supported"] as? [String] == ["ES256"])
        }
    }

    @Test("a configured client with inline jwks signs in, refreshes and revokes, each step with an assertion")
    func inlineJWKS() async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            #expect(tokens.subject == SandboxAccount(handle: "alice.test").did)
            #expect(tokens.scope == ConfidentialDocuments.scope)
            #expect(tokens.expiresIn == 1800)
            #expect(try await client.getSession(tokens.accessToken).status == 200)

            let refreshed = try await client.refresh(tokens.refreshToken, key: key)
            #expect(refreshed.status == 200, "refresh failed: \(refreshed.text)")
            let second = try Tokens(refreshed)
            #expect(second.refreshToken != tokens.refreshToken)
            #expect(second.expiresIn == 1800)
            #expect(try await client.getSession(second.accessToken).status == 200)

            let revoked = try await client.revoke(second.refreshToken, authentication: try client.authentication(key))
            #expect(revoked.status == 200, "revocation failed: \(revoked.text)")
            #expect(try await client.getSession(second.accessToken).status == 401)

            let counters = sandbox.server.counters
            #expect(counters.authorizationCodeGrantsSucceeded == 1)
            #expect(counters.refreshGrantsSucceeded == 1)
            #expect(counters.revocations == 1)
            #expect(counters.clientAssertionsAccepted == 4)
            #expect(counters.clientAssertionsRefused == 0)
            #expect(sandbox.logMessages.contains { $0.contains("bound to client key key-1") })

            let afterRevocation = try await client.refresh(second.refreshToken, key: key)
            #expect(afterRevocation.status == 400)
            #expect(afterRevocation.errorCode == "invalid_grant")
        }
    }

    @Test("client_id is required beside an assertion, at a refresh and a revocation, as at the reference server")
    func clientIDRequired() async throws {
        let key = TestSigningKey(kid: "key-1")
        try await withSandbox(try ConfidentialDocuments.configuration(keys: [key])) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            let refresh = try await client.refresh(
                tokens.refreshToken,
                authentication: try client.authentication(key),
                sendsClientID: false
            )
            let revocation = try await client.revoke(
                tokens.refreshToken,
                authentication: try client.authentication(key),
                sendsClientID: false
            )
            #expect([refresh.errorCode, revocation.errorCode] == ["invalid_request", "invalid_request"])
            #expect(sandbox.server.counters.rejections(.invalidRequest) == 2)
            #expect(sandbox.server.counters.revocations == 0)
            let refreshed = try await client.refresh(tokens.refreshToken, key: key)
            #expect(refreshed.status == 200, "the session should be intact: \(refreshed.text)")
        }
    }

    @Test("a document and its jwks_uri served on loopback are fetched once each, then taken from the cache")
    func servedDocuments() async throws {
        let key = TestSigningKey(kid: "served-key")
        let served = ServedDocuments()
        try await LoopbackHTTPServer.withServer(handler: served.handler) { server in
            let clientID = server.url("/client-metadata.json").absoluteString
            let jwksURI = server.url("/jwks.json").absoluteString
            let redirectURI = "http://127.0.0.1:54321/callback"
            served.set(
                "/client-metadata.json",
                .json(
                    try ConfidentialDocuments.document(clientID: clientID, redirectURI: redirectURI, jwksURI: jwksURI)
                )
            )
            served.set("/jwks.json", .json(try ConfidentialDocuments.jwksDocument([key])))
            try await withSandbox { sandbox in
                let client = ConfidentialTestClient(sandbox, clientID: clientID, redirectURI: redirectURI)
                let tokens = try await client.signIn(key: key)
                let refreshed = try await client.refresh(tokens.refreshToken, key: key)
                #expect(refreshed.status == 200, "refresh failed: \(refreshed.text)")
                let revoked = try await client.revoke(
                    try Tokens(refreshed).refreshToken,
                    authentication: try client.authentication(key)
                )
                #expect(revoked.status == 200)
                #expect(server.requests.filter { $0.path == "/client-metadata.json" }.count == 1)
                #expect(server.requests.filter { $0.path == "/jwks.json" }.count == 1)
                #expect(server.requests.allSatisfy { $0.method == "GET" })
                #expect(sandbox.server.counters.clientAssertionsAccepted == 4)
            }
        }
    }

    @Test("a confidential session and each refresh token have their own lifetimes; a public client's stay 2 weeks")
    func lifetimes() async throws {
        let key = TestSigningKey(kid: "key-1")
        var configuration = try ConfidentialDocuments.configuration(keys: [key])
        configuration.confidentialSessionLifetime = 300
        configuration.confidentialRefreshTokenLifetime = 120
        try await withSandbox(configuration) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let publicClient = sandbox.client()
            let publicTokens = try await publicClient.signIn()

            // Each refresh token expires 120 s after issue.
            let idle = try await client.signIn(key: key)
            sandbox.clock.advance(by: 121)
            let expired = try await client.refresh(idle.refreshToken, key: key)
            #expect(expired.status == 400)
            #expect(expired.errorCode == "invalid_grant")
            let description = try expired.json()["error_description"] as? String
            #expect(description?.contains("refresh token has expired") == true)

            // Refreshed in time, a session lives 300 s from sign-in, however often it is refreshed.
            var tokens = try await client.signIn(key: key)
            for _ in 0..<2 {
                sandbox.clock.advance(by: 100)
                let refreshed = try await client.refresh(tokens.refreshToken, key: key)
                #expect(refreshed.status == 200, "refresh failed: \(refreshed.text)")
                tokens = try Tokens(refreshed)
            }
            sandbox.clock.advance(by: 101)
            let ended = try await client.refresh(tokens.refreshToken, key: key)
            #expect(ended.status == 400)
            #expect(ended.errorCode == "invalid_grant")
            #expect(sandbox.server.counters.rejections(.invalidRefreshToken) == 2)

            // The public client's session, 422 s old, still refreshes.
            let publicRefresh = try await publicClient.refresh(publicTokens.refreshToken)
            #expect(publicRefresh.status == 200, "public refresh failed: \(publicRefresh.text)")
        }
    }

    @Test("the first access token ends with a session shorter than the access token lifetime, as a refreshed one does")
    func firstAccessTokenWithinSession() async throws {
        let key = TestSigningKey(kid: "key-1")
        var configuration = try ConfidentialDocuments.configuration(keys: [key])
        configuration.confidentialSessionLifetime = 60
        try await withSandbox(configuration) { sandbox in
            let client = ConfidentialTestClient(sandbox)
            let tokens = try await client.signIn(key: key)
            #expect(tokens.expiresIn == 60)
            #expect(try await client.getSession(tokens.accessToken).status == 200)
            sandbox.clock.advance(by: 61)
            #expect(try await client.getSession(tokens.accessToken).status == 401)
            #expect(sandbox.server.counters.rejections(.expiredToken) == 1)
        }
    }
}

extension ServedDocuments {
    /// The handler of a ``LoopbackHTTPServer`` that answers from these documents, and 404 elsewhere.
    var handler: LoopbackHTTPServer.Handler {
        { request in
            guard let answer = self.answer(request.path) else { return ScriptedResponse(status: 404) }
            switch answer {
            case .json(let body):
                return ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
            case .response(let status, let headers, let body):
                return ScriptedResponse(status: status, headers: headers, body: body)
            }
        }
    }
}
