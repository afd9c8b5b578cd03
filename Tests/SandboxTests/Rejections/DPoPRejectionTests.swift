import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Server-side DPoP checks")
struct DPoPRejectionTests {
    @Test("a proof whose htu is another URL is refused, and the log says why")
    func wrongHTU() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let otherURL = signedIn.client.url(sandbox.endpoints.pds, "xrpc/com.atproto.repo.listRecords")
            let proof = try signedIn.client.proof(
                .get,
                otherURL,
                nonce: signedIn.pdsNonce,
                accessToken: signedIn.tokens.accessToken
            )
            let response = try await signedIn.getSession(proof: proof)
            #expect(response.status == 401)
            #expect(response.dpopChallenge?["error"] == "invalid_dpop_proof")
            #expect(response.headers["DPoP-Nonce"] != nil)
            #expect(sandbox.server.counters.rejections(.dpopURLMismatch) == 1)
            #expect(
                sandbox.logMessages.contains {
                    $0.hasPrefix("rejected GET /xrpc/com.atproto.server.getSession: DPoP proof htu does not match")
                }
            )
        }
    }

    @Test("a proof whose htm is another method is refused")
    func wrongHTM() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try signedIn.client.proof(
                .post,
                signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: signedIn.tokens.accessToken
            )
            let response = try await signedIn.getSession(proof: proof)
            #expect(response.status == 401)
            #expect(response.dpopChallenge?["error"] == "invalid_dpop_proof")
            #expect(sandbox.server.counters.rejections(.dpopMethodMismatch) == 1)
        }
    }

    @Test("a proof issued too long ago is refused")
    func oldIssuedAt() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: signedIn.tokens.accessToken,
                issuedAt: sandbox.clock.now().addingTimeInterval(-300)
            )
            let response = try await signedIn.getSession(proof: proof)
            #expect(response.status == 401)
            #expect(sandbox.server.counters.rejections(.dpopIssuedAtOutOfRange) == 1)
        }
    }

    @Test("the same proof sent twice is refused the second time")
    func replayedProof() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: signedIn.tokens.accessToken
            )
            #expect(try await signedIn.getSession(proof: proof).status == 200)
            let replay = try await signedIn.getSession(proof: proof)
            #expect(replay.status == 401)
            #expect(replay.dpopChallenge?["error"] == "invalid_dpop_proof")
            #expect(sandbox.server.counters.rejections(.dpopReplay) == 1)
        }
    }

    @Test("a jti used at the token endpoint is refused at the PDS: replays are tracked across endpoints")
    func replayAcrossEndpoints() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let client = signedIn.client
            let brokenSigner = DPoPProofSigner(key: client.key, random: RepeatingRandomSource(byte: 7))
            let tokenURL = client.url(sandbox.endpoints.authorizationServer, "oauth/token")
            let refreshProof = try brokenSigner.proof(
                method: .post,
                url: tokenURL,
                nonce: client.nonces.nonce(for: sandbox.endpoints.issuer),
                issuedAt: sandbox.clock.now()
            )
            let refreshed = try await client.send(
                client.formRequest(
                    tokenURL,
                    [
                        ("grant_type", "refresh_token"), ("refresh_token", signedIn.tokens.refreshToken),
                        ("client_id", client.clientID),
                    ],
                    proof: refreshProof
                )
            )
            #expect(refreshed.status == 200)
            let tokens = try Tokens(refreshed)
            let sessionProof = try brokenSigner.proof(
                method: .get,
                url: signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: tokens.accessToken,
                issuedAt: sandbox.clock.now()
            )
            let response = try await signedIn.client.send(
                HTTPRequest(
                    method: .get,
                    url: signedIn.getSessionURL,
                    headers: ["Authorization": "DPoP \(tokens.accessToken)", "DPoP": sessionProof]
                )
            )
            #expect(response.status == 401)
            #expect(sandbox.server.counters.rejections(.dpopReplay) == 1)
        }
    }

    @Test("a resource request without a nonce gets use_dpop_nonce and a DPoP-Nonce header")
    func missingNonce() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            sandbox.server.resetCounters()
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                accessToken: signedIn.tokens.accessToken
            )
            let response = try await signedIn.getSession(proof: proof)
            #expect(response.status == 401)
            #expect(response.dpopChallenge?["error"] == "use_dpop_nonce")
            #expect(response.headers["DPoP-Nonce"] != nil)
            #expect(response.errorCode == "use_dpop_nonce")
            #expect(sandbox.server.counters.nonceChallengesSent == 1)
            #expect(sandbox.server.counters.rejections(.dpopNonceMissing) == 1)
        }
    }

    @Test("an authorization server request without a nonce gets 400 use_dpop_nonce")
    func missingNonceAtAuthorizationServer() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let parURL = client.url(sandbox.endpoints.authorizationServer, "oauth/par")
            let response = try await client.send(
                client.formRequest(parURL, client.parParameters(FlowSecrets()), proof: try client.proof(.post, parURL))
            )
            #expect(response.status == 400)
            #expect(response.errorCode == "use_dpop_nonce")
            #expect(response.headers["DPoP-Nonce"] != nil)
            #expect(sandbox.server.counters.nonceChallengesSent == 1)
        }
    }

    @Test("a nonce older than the previous period is stale, and the retry with the new one works")
    func staleNonce() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let oldNonce = try #require(signedIn.pdsNonce)
            sandbox.clock.advance(by: 150)
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: oldNonce,
                accessToken: signedIn.tokens.accessToken
            )
            let response = try await signedIn.getSession(proof: proof)
            #expect(response.status == 401)
            #expect(response.dpopChallenge?["error"] == "use_dpop_nonce")
            #expect(sandbox.server.counters.rejections(.dpopNonceStale) == 1)
            let freshNonce = try #require(response.headers["DPoP-Nonce"])
            #expect(freshNonce != oldNonce)
            let retry = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: freshNonce,
                accessToken: signedIn.tokens.accessToken
            )
            #expect(try await signedIn.getSession(proof: retry).status == 200)
        }
    }

    @Test("a proof whose ath hashes another token is refused")
    func wrongATH() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: "some-other-token"
            )
            let response = try await signedIn.getSession(proof: proof)
            #expect(response.status == 401)
            #expect(response.dpopChallenge?["error"] == "invalid_dpop_proof")
            #expect(sandbox.server.counters.rejections(.dpopAccessTokenHashMismatch) == 1)
        }
    }

    @Test("a token presented with another key's proof is refused as invalid_token")
    func anotherKey() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: signedIn.tokens.accessToken,
                key: DPoPKey()
            )
            let response = try await signedIn.getSession(proof: proof)
            #expect(response.status == 401)
            #expect(response.dpopChallenge?["error"] == "invalid_token")
            #expect(sandbox.server.counters.rejections(.dpopKeyMismatch) == 1)
        }
    }

    @Test("a token sent with the Bearer scheme is refused")
    func bearerScheme() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: signedIn.tokens.accessToken
            )
            let response = try await signedIn.getSession(
                authorization: "Bearer \(signedIn.tokens.accessToken)",
                proof: proof
            )
            #expect(response.status == 401)
            #expect(response.headers["WWW-Authenticate"]?.hasPrefix("DPoP") == true)
            #expect(sandbox.server.counters.rejections(.bearerScheme) == 1)
            let withoutAny = try await signedIn.getSession(authorization: nil, proof: nil)
            #expect(withoutAny.status == 401)
            #expect(sandbox.server.counters.rejections(.authorizationMissing) == 1)
        }
    }

    @Test("logs never contain a whole token")
    func logsAreRedacted() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            sandbox.clock.advance(by: 1801)
            let expired = try await signedIn.client.xrpc(
                .get,
                "com.atproto.server.getSession",
                accessToken: signedIn.tokens.accessToken
            )
            #expect(expired.status == 401)
            let messages = sandbox.logMessages.joined(separator: "\n")
            #expect(messages.contains(String(signedIn.tokens.accessToken.prefix(6)) + "…"))
            #expect(!messages.contains(signedIn.tokens.accessToken))
            #expect(!messages.contains(signedIn.tokens.refreshToken))
        }
    }
}
