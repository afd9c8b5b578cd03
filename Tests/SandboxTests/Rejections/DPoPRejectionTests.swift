import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Server-side DPoP checks")
struct DPoPRejectionTests {
    /// One claim of an otherwise good proof made wrong, and what the PDS must answer.
    enum ProofFault: CaseIterable, CustomTestStringConvertible, Sendable {
        case htuOfAnotherURL, htmOfAnotherMethod, issuedLongAgo, issuedInTheFuture, athOfAnotherToken, anotherKey

        var testDescription: String {
            switch self {
            case .htuOfAnotherURL: "htu names another URL"
            case .htmOfAnotherMethod: "htm names another method"
            case .issuedLongAgo: "iat is 300 s in the past"
            case .issuedInTheFuture: "iat is 300 s in the future"
            case .athOfAnotherToken: "ath hashes another token"
            case .anotherKey: "signed by a key the token is not bound to"
            }
        }

        /// The `error` of the `WWW-Authenticate: DPoP` challenge (RFC 9449 section 7.1).
        var challengeError: String { self == .anotherKey ? "invalid_token" : "invalid_dpop_proof" }

        /// The reason the sandbox counts.
        var reason: SandboxRejectionReason {
            switch self {
            case .htuOfAnotherURL: .dpopURLMismatch
            case .htmOfAnotherMethod: .dpopMethodMismatch
            case .issuedLongAgo, .issuedInTheFuture: .dpopIssuedAtOutOfRange
            case .athOfAnotherToken: .dpopAccessTokenHashMismatch
            case .anotherKey: .dpopKeyMismatch
            }
        }

        /// A proof for `getSession` with this fault.
        func proof(_ signedIn: SignedInClient, now: Date) throws -> String {
            let client = signedIn.client
            let token = signedIn.tokens.accessToken
            let url = signedIn.getSessionURL
            let nonce = signedIn.pdsNonce
            return switch self {
            case .htuOfAnotherURL:
                try client.proof(
                    .get,
                    client.url(client.endpoints.pds, "xrpc/com.atproto.repo.listRecords"),
                    nonce: nonce,
                    accessToken: token
                )
            case .htmOfAnotherMethod: try client.proof(.post, url, nonce: nonce, accessToken: token)
            case .issuedLongAgo:
                try client.proof(.get, url, nonce: nonce, accessToken: token, issuedAt: now.addingTimeInterval(-300))
            case .issuedInTheFuture:
                try client.proof(.get, url, nonce: nonce, accessToken: token, issuedAt: now.addingTimeInterval(300))
            case .athOfAnotherToken: try client.proof(.get, url, nonce: nonce, accessToken: "some-other-token")
            case .anotherKey: try client.proof(.get, url, nonce: nonce, accessToken: token, key: DPoPKey())
            }
        }
    }

    @Test(
        "a proof with one wrong claim is refused with a DPoP challenge and a fresh nonce",
        arguments: ProofFault.allCases
    )
    func faultyProof(_ fault: ProofFault) async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            sandbox.server.resetCounters()
            let response = try await signedIn.getSession(proof: fault.proof(signedIn, now: sandbox.clock.now()))
            #expect(response.status == 401)
            #expect(response.dpopChallenge?["error"] == fault.challengeError)
            #expect(response.headers["DPoP-Nonce"] != nil)
            #expect(sandbox.server.counters.rejections(fault.reason) == 1)
            #expect(sandbox.server.counters.totalRejections == 1)
        }
    }

    @Test("a refused proof is logged with its reason in words")
    func rejectionIsLogged() async throws {
        try await withSandbox { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try ProofFault.htuOfAnotherURL.proof(signedIn, now: sandbox.clock.now())
            #expect(try await signedIn.getSession(proof: proof).status == 401)
            #expect(
                sandbox.logMessages.contains {
                    $0.hasPrefix("rejected GET /xrpc/com.atproto.server.getSession: DPoP proof htu does not match")
                }
            )
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

    @Test("a proof dated ahead is remembered as long as its iat is accepted, past the jti lifetime (RFC 9449 §11.1)")
    func replayOfProofDatedAhead() async throws {
        // A long nonce period, so that only the replay check can refuse the proof 250 seconds on.
        try await withSandbox(SandboxConfiguration(nonceRotationPeriod: 600, autoApprove: true)) { sandbox in
            let signedIn = try await SignedInClient(sandbox)
            let proof = try signedIn.client.proof(
                .get,
                signedIn.getSessionURL,
                nonce: signedIn.pdsNonce,
                accessToken: signedIn.tokens.accessToken,
                issuedAt: sandbox.clock.now().addingTimeInterval(170)
            )
            #expect(try await signedIn.getSession(proof: proof).status == 200)
            // Past the 200-second jti lifetime, and still within the 190 seconds after its iat that a proof is taken.
            sandbox.clock.advance(by: 250)
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
            let brokenSigner = DPoPProofSigner(key: client.key, random: FixedRandomSource(repeating: 7))
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
