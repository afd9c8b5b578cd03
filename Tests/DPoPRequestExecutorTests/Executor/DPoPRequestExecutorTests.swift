import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Testing

@Suite("The executor answers nonce challenges once")
struct DPoPRequestExecutorTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func executor(_ transport: ScriptedTransport, cache: DPoPNonceCache = DPoPNonceCache()) -> DPoPRequestExecutor {
        DPoPRequestExecutor(transport: transport, key: DPoPKey(), nonceCache: cache, now: { [now] in now })
    }

    func nonceError(_ nonce: String?) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let nonce { headers.add(name: "DPoP-Nonce", value: nonce) }
        return HTTPResponse(status: 400, headers: headers, body: Data(#"{"error":"use_dpop_nonce"}"#.utf8))
    }

    func resourceChallenge(_ nonce: String) -> HTTPResponse {
        HTTPResponse(
            status: 401,
            headers: ["WWW-Authenticate": #"DPoP algs="ES256", error="use_dpop_nonce""#, "DPoP-Nonce": nonce]
        )
    }

    func proofClaims(_ request: HTTPRequest) throws -> [String: Any] {
        try ProofParts(try #require(request.headers["DPoP"])).claims
    }

    @Test("an authorization server's use_dpop_nonce is retried once with a new jti, the new nonce and the same body")
    func authorizationServerRetry() async throws {
        let transport = ScriptedTransport(responses: [nonceError("n1"), HTTPResponse(status: 201)])
        let body = Data("client_id=x&state=%2F%3D".utf8)
        let request = HTTPRequest(method: .post, url: try url("https://as.example/oauth/par"), body: body)
        let response = try await executor(transport).send(request)
        #expect(response.status == 201)
        let sent = transport.requests
        #expect(sent.count == 2)
        let first = try proofClaims(sent[0])
        let second = try proofClaims(sent[1])
        #expect(first["nonce"] == nil)
        #expect(second["nonce"] as? String == "n1")
        #expect(first["jti"] as? String != second["jti"] as? String)
        #expect(sent.allSatisfy { $0.body == body && $0.method == .post && $0.headers["Authorization"] == nil })
    }

    @Test("a resource server's 401 DPoP challenge is retried with the token and ath")
    func resourceServerRetry() async throws {
        let transport = ScriptedTransport(responses: [resourceChallenge("r1"), HTTPResponse(status: 200)])
        let request = HTTPRequest(url: try url("https://pds.example/xrpc/com.atproto.server.getSession"))
        let response = try await executor(transport).send(request, accessToken: "at-1")
        #expect(response.status == 200)
        let sent = transport.requests
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { $0.headers["Authorization"] == "DPoP at-1" })
        let retried = try proofClaims(sent[1])
        #expect(retried["nonce"] as? String == "r1")
        #expect(retried["ath"] as? String == DPoPProofSigner.accessTokenHash("at-1"))
    }

    @Test("the next request to the same origin reuses the nonce without an extra round trip")
    func nonceReuse() async throws {
        let transport = ScriptedTransport(responses: [
            nonceError("n1"), HTTPResponse(status: 201, headers: ["DPoP-Nonce": "n2"]), HTTPResponse(status: 200),
            HTTPResponse(status: 200),
        ])
        let executor = executor(transport)
        _ = try await executor.send(HTTPRequest(method: .post, url: try url("https://as.example/oauth/par")))
        _ = try await executor.send(HTTPRequest(method: .post, url: try url("https://as.example/oauth/token")))
        _ = try await executor.send(HTTPRequest(url: try url("https://pds.example/xrpc/x")))
        let sent = transport.requests
        #expect(sent.count == 4)
        #expect(try proofClaims(sent[2])["nonce"] as? String == "n2")
        #expect(try proofClaims(sent[3])["nonce"] == nil)
    }

    @Test("a second challenge in a row is an error, not a loop")
    func secondChallenge() async throws {
        let transport = ScriptedTransport(responses: [nonceError("n1"), nonceError("n2"), HTTPResponse(status: 201)])
        let error = await #expect(throws: DPoPError.self) {
            try await executor(transport).send(HTTPRequest(method: .post, url: try url("https://as.example/par")))
        }
        #expect(error?.code == .repeatedNonceChallenge)
        #expect(transport.requests.count == 2)
    }

    @Test("a challenge without a nonce is an error and is not retried")
    func challengeWithoutNonce() async throws {
        let transport = ScriptedTransport(responses: [nonceError(nil)])
        await #expect(throws: DPoPError.self) {
            try await executor(transport).send(HTTPRequest(method: .post, url: try url("https://as.example/par")))
        }
        #expect(transport.requests.count == 1)
    }

    @Test(
        "a nonce outside RFC 9449's syntax or over 1024 bytes is ignored: a challenge with only such a nonce fails",
        arguments: [String(repeating: "n", count: 1025), "has space", "quote\"d", "back\\slash", "é", ""]
    )
    func unusableNonce(_ nonce: String) async throws {
        let transport = ScriptedTransport(responses: [nonceError(nonce)])
        let cache = DPoPNonceCache()
        let executor = DPoPRequestExecutor(transport: transport, key: DPoPKey(), nonceCache: cache)
        await #expect(throws: DPoPError.self) {
            try await executor.send(HTTPRequest(method: .post, url: try url("https://as.example/par")))
        }
        #expect(transport.requests.count == 1)
        #expect(cache.snapshot().isEmpty)
        #expect(
            DPoPNonceCache(entries: ["https://as.example": .init(nonce: nonce, receivedAt: Date())]).snapshot().isEmpty
        )
        #expect(DPoPNonceSyntax.isValid(String(repeating: "n", count: 1024)))
    }

    @Test("other errors are returned as responses without a retry")
    func otherErrors() async throws {
        let invalidToken = HTTPResponse(
            status: 401,
            headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#, "DPoP-Nonce": "n9"]
        )
        let badRequest = HTTPResponse(status: 400, body: Data(#"{"error":"invalid_request"}"#.utf8))
        let transport = ScriptedTransport(responses: [invalidToken, badRequest])
        let cache = DPoPNonceCache()
        let executor = executor(transport, cache: cache)
        #expect(
            try await executor.send(HTTPRequest(url: try url("https://pds.example/x")), accessToken: "t").status == 401
        )
        #expect(try await executor.send(HTTPRequest(method: .post, url: try url("https://as.example/t"))).status == 400)
        #expect(transport.requests.count == 2)
        #expect(cache.nonce(for: "https://pds.example") == "n9")
    }
}
