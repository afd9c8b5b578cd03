import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("The whole authorization flow, by hand")
struct AuthorizationFlowTests {
    @Test("a sign-in with a nonce retry, the repository methods, a refresh and a revocation all work")
    func fullFlow() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let flow = FlowSecrets()

            // PAR: the first answer is a nonce challenge, the retry succeeds.
            let parURL = client.url(sandbox.endpoints.authorizationServer, "oauth/par")
            let challenge = try await client.send(
                client.formRequest(parURL, client.parParameters(flow), proof: try client.proof(.post, parURL))
            )
            #expect(challenge.status == 400)
            #expect(challenge.errorCode == "use_dpop_nonce")
            let nonce = try #require(challenge.headers["DPoP-Nonce"])
            let pushed = try await client.send(
                client.formRequest(
                    parURL,
                    client.parParameters(flow, loginHint: "bob.test"),
                    proof: try client.proof(.post, parURL, nonce: nonce)
                )
            )
            #expect(pushed.status == 201)
            #expect(pushed.headers["DPoP-Nonce"] != nil)
            let parJSON = try pushed.json()
            let requestURI = try #require(parJSON["request_uri"] as? String)
            #expect(requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:"))
            #expect(parJSON["expires_in"] as? Int == 300)
            if let newNonce = pushed.headers["DPoP-Nonce"] {
                client.nonces.update(newNonce, for: sandbox.endpoints.issuer)
            }

            // Authorize (auto-approve): a 302 to the redirect URI with code, state and iss.
            let redirect = try await client.openAuthorization(requestURI: requestURI)
            #expect(redirect.status == 302)
            let query = try redirect.locationQuery()
            #expect(query["state"] == flow.state)
            #expect(query["iss"] == sandbox.endpoints.issuer)
            let code = try #require(query["code"])

            // Token.
            let tokenResponse = try await client.tokenRequest(client.codeGrantParameters(code, flow))
            #expect(tokenResponse.status == 200)
            #expect(tokenResponse.headers["Cache-Control"] == "no-store")
            let tokens = try Tokens(tokenResponse)
            let bob = SandboxAccount(handle: "bob.test")
            #expect(tokens.subject == bob.did)
            #expect(tokens.scope == TestClientIdentity.scope)
            #expect(tokens.expiresIn == 1800)

            // getSession: the first PDS call is challenged for a nonce; the executor retries with ath.
            let session = try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: tokens.accessToken)
            #expect(session.status == 200)
            let sessionJSON = try session.json()
            #expect(sessionJSON["did"] as? String == bob.did)
            #expect(sessionJSON["handle"] as? String == "bob.test")
            #expect(sessionJSON["active"] as? Bool == true)

            try await exerciseRepository(client, tokens: tokens, did: bob.did)

            // Refresh rotates both tokens.
            let refreshed = try await client.refresh(tokens.refreshToken)
            #expect(refreshed.status == 200)
            let newTokens = try Tokens(refreshed)
            #expect(newTokens.refreshToken != tokens.refreshToken)
            #expect(newTokens.accessToken != tokens.accessToken)
            #expect(sandbox.server.counters.refreshGrantsSucceeded == 1)
            let again = try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: newTokens.accessToken)
            #expect(again.status == 200)

            // Revoke: then the PDS refuses the token.
            let revokeURL = client.url(sandbox.endpoints.authorizationServer, "oauth/revoke")
            let revoked = try await client.executor.send(
                client.formRequest(
                    revokeURL,
                    [
                        ("token", newTokens.refreshToken), ("token_type_hint", "refresh_token"),
                        ("client_id", client.clientID),
                    ]
                )
            )
            #expect(revoked.status == 200)
            #expect(revoked.text == "{}")
            let refused = try await client.xrpc(
                .get,
                "com.atproto.server.getSession",
                accessToken: newTokens.accessToken
            )
            #expect(refused.status == 401)
            #expect(refused.dpopChallenge?["error"] == "invalid_token")
            let unknown = try await client.executor.send(
                client.formRequest(revokeURL, [("token", "no-such-token"), ("client_id", client.clientID)])
            )
            #expect(unknown.status == 200)
            // Without client_id, or without a DPoP proof, the reference server revokes nothing; the sandbox says so.
            let anonymous = try await client.executor.send(client.formRequest(revokeURL, [("token", "t")]))
            #expect(anonymous.errorCode == "invalid_request")
            let withoutProof = try await sandbox.transport.send(
                client.formRequest(revokeURL, [("token", "t"), ("client_id", client.clientID)])
            )
            #expect(withoutProof.errorCode == "invalid_dpop_proof")
        }
    }

    private func exerciseRepository(_ client: SandboxTestClient, tokens: Tokens, did: String) async throws {
        let collection = "com.example.note"
        let created = try await client.xrpc(
            .post,
            "com.atproto.repo.createRecord",
            json: ["repo": "bob.test", "collection": collection, "record": ["text": "hello"]],
            accessToken: tokens.accessToken
        )
        #expect(created.status == 200, "createRecord: \(created.text)")
        let uri = try #require(try created.json()["uri"] as? String)
        let cid = try #require(try created.json()["cid"] as? String)
        #expect(uri.hasPrefix("at://\(did)/\(collection)/"))
        #expect(cid.hasPrefix("bafyrei"))
        let rkey = String(try #require(uri.split(separator: "/").last))

        let second = try await client.xrpc(
            .post,
            "com.atproto.repo.createRecord",
            json: ["repo": did, "collection": collection, "rkey": "self", "record": ["text": "second"]],
            accessToken: tokens.accessToken
        )
        #expect(second.status == 200)

        let fetched = try await client.xrpc(
            .get,
            "com.atproto.repo.getRecord",
            query: [("repo", did), ("collection", collection), ("rkey", rkey)],
            accessToken: tokens.accessToken
        )
        #expect(fetched.status == 200)
        let value = try #require(try fetched.json()["value"] as? [String: Any])
        #expect(value["text"] as? String == "hello")
        #expect(try fetched.json()["cid"] as? String == cid)

        let listed = try await client.xrpc(
            .get,
            "com.atproto.repo.listRecords",
            query: [("repo", did), ("collection", collection), ("limit", "1")],
            accessToken: tokens.accessToken
        )
        #expect(listed.status == 200)
        let page = try listed.json()
        #expect((page["records"] as? [[String: Any]])?.count == 1)
        let cursor = try #require(page["cursor"] as? String)
        let rest = try await client.xrpc(
            .get,
            "com.atproto.repo.listRecords",
            query: [("repo", did), ("collection", collection), ("cursor", cursor)],
            accessToken: tokens.accessToken
        )
        #expect((try rest.json()["records"] as? [[String: Any]])?.count == 1)

        let deleted = try await client.xrpc(
            .post,
            "com.atproto.repo.deleteRecord",
            json: ["repo": did, "collection": collection, "rkey": rkey],
            accessToken: tokens.accessToken
        )
        #expect(deleted.status == 200)
        let gone = try await client.xrpc(
            .get,
            "com.atproto.repo.getRecord",
            query: [("repo", did), ("collection", collection), ("rkey", rkey)],
            accessToken: tokens.accessToken
        )
        #expect(gone.status == 400)  // As the reference PDS answers it.
        #expect(gone.errorCode == "RecordNotFound")

        let blobBytes = Data("a picture".utf8)
        let uploaded = try await client.xrpc(
            .post,
            "com.atproto.repo.uploadBlob",
            body: blobBytes,
            contentType: "image/png",
            accessToken: tokens.accessToken
        )
        #expect(uploaded.status == 200)
        let blob = try #require(try uploaded.json()["blob"] as? [String: Any])
        #expect(blob["$type"] as? String == "blob")
        #expect(blob["mimeType"] as? String == "image/png")
        #expect(blob["size"] as? Int == blobBytes.count)
        #expect(((blob["ref"] as? [String: Any])?["$link"] as? String)?.hasPrefix("bafkrei") == true)

        let profile = try await client.xrpc(
            .get,
            "app.bsky.actor.getProfile",
            query: [("actor", "alice.test")],
            accessToken: tokens.accessToken
        )
        #expect(profile.status == 200)
        #expect(try profile.json()["handle"] as? String == "alice.test")
        #expect(try profile.json()["displayName"] as? String == "Alice")
    }

    @Test("the consent page shows an approve button, and approving or denying redirects to the client")
    func consentPage() async throws {
        try await withSandbox(SandboxConfiguration(autoApprove: false)) { sandbox in
            let client = sandbox.client()
            let alice = SandboxAccount(handle: "alice.test")

            let approveFlow = FlowSecrets()
            let page = try await client.openAuthorization(requestURI: try await client.pushAuthorization(approveFlow))
            #expect(page.status == 200)
            #expect(page.text.contains(#"id="approve""#))
            #expect(page.text.contains("alice.test") && page.text.contains("bob.test"))
            let csrf = try Self.csrfToken(in: page.text)
            let authorizeURL = client.url(sandbox.endpoints.authorizationServer, "oauth/authorize")
            let approved = try await client.send(
                client.formRequest(
                    authorizeURL,
                    [("csrf_token", csrf), ("account", alice.did), ("decision", "approve")]
                )
            )
            #expect(approved.status == 303)
            let approvedQuery = try approved.locationQuery()
            #expect(approvedQuery["state"] == approveFlow.state)
            #expect(approvedQuery["iss"] == sandbox.endpoints.issuer)
            let code = try #require(approvedQuery["code"])
            let tokens = try Tokens(try await client.tokenRequest(client.codeGrantParameters(code, approveFlow)))
            #expect(tokens.subject == alice.did)

            let replayedForm = try await client.send(
                client.formRequest(
                    authorizeURL,
                    [("csrf_token", csrf), ("account", alice.did), ("decision", "approve")]
                )
            )
            #expect(replayedForm.status == 400)

            let denyFlow = FlowSecrets()
            let denyPage = try await client.openAuthorization(requestURI: try await client.pushAuthorization(denyFlow))
            let denied = try await client.send(
                client.formRequest(
                    authorizeURL,
                    [
                        ("csrf_token", try Self.csrfToken(in: denyPage.text)), ("account", alice.did),
                        ("decision", "deny"),
                    ]
                )
            )
            #expect(denied.status == 303)
            let deniedQuery = try denied.locationQuery()
            #expect(deniedQuery["error"] == "access_denied")
            #expect(deniedQuery["error_description"]?.isEmpty == false)
            #expect(deniedQuery["state"] == denyFlow.state)
            #expect(deniedQuery["iss"] == sandbox.endpoints.issuer)
            #expect(deniedQuery["code"] == nil)
        }
    }

    @Test("a refused choice on the consent page can be made again with the same form; a carried-out one cannot")
    func refusedChoiceCanBeCorrected() async throws {
        try await withSandbox(SandboxConfiguration(autoApprove: false)) { sandbox in
            let client = sandbox.client()
            let flow = FlowSecrets()
            let page = try await client.openAuthorization(requestURI: try await client.pushAuthorization(flow))
            let csrf = try Self.csrfToken(in: page.text)
            let authorizeURL = client.url(sandbox.endpoints.authorizationServer, "oauth/authorize")
            func submit(_ fields: [(String, String)]) async throws -> HTTPResponse {
                try await client.send(client.formRequest(authorizeURL, [("csrf_token", csrf)] + fields))
            }
            let nobody = try await submit([("account", "nobody.test"), ("decision", "approve")])
            #expect(nobody.status == 400)
            #expect(nobody.text.contains("choose one of the sandbox"))
            let alice = SandboxAccount(handle: "alice.test").did
            let undecided = try await submit([("account", alice), ("decision", "maybe")])
            #expect(undecided.status == 400)

            let approved = try await submit([("account", alice), ("decision", "approve")])
            #expect(approved.status == 303, "\(approved.text)")
            #expect(try approved.locationQuery()["state"] == flow.state)
            let again = try await submit([("account", alice), ("decision", "approve")])
            #expect(again.status == 400)
            #expect(again.text.contains("unknown or was already used"))
        }
    }

    @Test("a configured hosted native client signs in with its private-use redirect URI")
    func hostedClient() async throws {
        let clientID = "https://myapp.example.app/client-metadata.json"
        let document = try JSONSerialization.data(withJSONObject: [
            "client_id": clientID, "application_type": "native", "token_endpoint_auth_method": "none",
            "dpop_bound_access_tokens": true, "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"], "scope": "atproto transition:generic",
            "redirect_uris": ["app.example.myapp:/callback"],
        ])
        let configuration = SandboxConfiguration(autoApprove: true, clientMetadataDocuments: [clientID: document])
        try await withSandbox(configuration) { sandbox in
            let client = sandbox.client(redirectURI: "app.example.myapp:/callback", clientID: clientID)
            let tokens = try await client.signIn(loginHint: "alice.test")
            #expect(tokens.subject == SandboxAccount(handle: "alice.test").did)
        }
    }

    static func csrfToken(in page: String) throws -> String {
        let marker = #"name="csrf_token" value=""#
        let start = try #require(page.range(of: marker)).upperBound
        let end = try #require(page[start...].firstIndex(of: "\""))
        return String(page[start..<end])
    }
}
