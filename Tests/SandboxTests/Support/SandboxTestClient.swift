import ATOAuthTesting
import Crypto
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing
import WireFormat

/// A hand-made OAuth client for the tests: one DPoP key, raw requests, and each step of the flow as a method.
struct SandboxTestClient: Sendable {
    let harness: SandboxHarness
    let clientID: String
    let redirectURI: String
    /// The scope the PAR asks for.
    let scope: String
    let key = DPoPKey()
    let nonces = DPoPNonceCache()

    init(harness: SandboxHarness, clientID: String, redirectURI: String, scope: String) {
        self.harness = harness
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
    }

    var endpoints: SandboxEndpoints { harness.endpoints }
    var signer: DPoPProofSigner { DPoPProofSigner(key: key) }

    /// An executor that signs with this client's key, answers one nonce challenge, and shares the nonces.
    var executor: DPoPRequestExecutor {
        let clock = harness.clock
        return DPoPRequestExecutor(transport: harness.transport, key: key, nonceCache: nonces, now: { clock.now() })
    }

    func url(_ base: URL, _ path: String) -> URL {
        base.appending(path: path)
    }

    /// Sends a request as it is, with no DPoP handling.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await harness.transport.send(request)
    }

    /// A proof made with this client's key, at the manual clock's time unless told otherwise.
    func proof(
        _ method: HTTPMethod,
        _ url: URL,
        nonce: String? = nil,
        accessToken: String? = nil,
        issuedAt: Date? = nil,
        key: DPoPKey? = nil
    ) throws -> String {
        let signer = key.map { DPoPProofSigner(key: $0) } ?? signer
        return try signer.proof(
            method: method,
            url: url,
            nonce: nonce,
            accessToken: accessToken,
            issuedAt: issuedAt ?? harness.clock.now()
        )
    }

    /// A form POST.
    func formRequest(_ url: URL, _ parameters: [(String, String)], proof: String? = nil) -> HTTPRequest {
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if let proof { headers.add(name: "DPoP", value: proof) }
        return HTTPRequest(method: .post, url: url, headers: headers, body: FormEscape.encode(parameters))
    }

    /// The PAR parameters for a new flow.
    func parParameters(
        _ flow: FlowSecrets,
        loginHint: String? = nil,
        scope: String? = nil
    )
        -> [(String, String)]
    {
        let scope = scope ?? self.scope
        var parameters = [
            ("client_id", clientID), ("response_type", "code"), ("code_challenge", flow.pkce.challenge),
            ("code_challenge_method", "S256"), ("state", flow.state), ("redirect_uri", redirectURI), ("scope", scope),
        ]
        if let loginHint { parameters.append(("login_hint", loginHint)) }
        return parameters
    }

    /// The PAR answer through the executor (which answers the first `use_dpop_nonce`), whatever its status.
    func pushedAuthorizationResponse(_ parameters: [(String, String)]) async throws -> HTTPResponse {
        try await executor.send(formRequest(url(endpoints.authorizationServer, "oauth/par"), parameters))
    }

    /// PAR through the executor (which answers the first `use_dpop_nonce`); returns the `request_uri`.
    func pushAuthorization(_ flow: FlowSecrets, loginHint: String? = nil) async throws -> String {
        let parURL = url(endpoints.authorizationServer, "oauth/par")
        let response = try await executor.send(formRequest(parURL, parParameters(flow, loginHint: loginHint)))
        #expect(response.status == 201, "PAR failed: \(response.text)")
        return try #require(try response.json()["request_uri"] as? String)
    }

    /// `GET /oauth/authorize` with only `client_id` and `request_uri`.
    func openAuthorization(requestURI: String) async throws -> HTTPResponse {
        var components = try #require(
            URLComponents(url: url(endpoints.authorizationServer, "oauth/authorize"), resolvingAgainstBaseURL: false)
        )
        components.percentEncodedQuery = String(
            decoding: FormEscape.encode([("client_id", clientID), ("request_uri", requestURI)]),
            as: UTF8.self
        )
        return try await send(HTTPRequest(method: .get, url: try #require(components.url)))
    }

    /// PAR, then auto-approval: returns the code after checking `state` and `iss` of the redirect.
    func authorizationCode(_ flow: FlowSecrets, loginHint: String? = nil) async throws -> String {
        let requestURI = try await pushAuthorization(flow, loginHint: loginHint)
        let redirect = try await openAuthorization(requestURI: requestURI)
        #expect(redirect.status == 302)
        let location = try #require(redirect.headers["Location"])
        #expect(location.hasPrefix(redirectURI + "?"))
        let query = try redirect.locationQuery()
        #expect(query["state"] == flow.state)
        #expect(query["iss"] == endpoints.issuer)
        return try #require(query["code"])
    }

    /// The token request parameters for a code.
    func codeGrantParameters(_ code: String, _ flow: FlowSecrets, redirectURI: String? = nil) -> [(String, String)] {
        [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI ?? self.redirectURI),
            ("code_verifier", flow.pkce.verifier), ("client_id", clientID),
        ]
    }

    /// A token request through the executor.
    func tokenRequest(_ parameters: [(String, String)]) async throws -> HTTPResponse {
        try await executor.send(formRequest(url(endpoints.authorizationServer, "oauth/token"), parameters))
    }

    /// The whole sign-in: PAR, approval, code exchange.
    func signIn(loginHint: String? = nil) async throws -> Tokens {
        let flow = FlowSecrets()
        let code = try await authorizationCode(flow, loginHint: loginHint)
        let response = try await tokenRequest(codeGrantParameters(code, flow))
        #expect(response.status == 200, "token request failed: \(response.text)")
        return try Tokens(response)
    }

    /// A refresh through the executor.
    func refresh(_ refreshToken: String) async throws -> HTTPResponse {
        try await tokenRequest([
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID),
        ])
    }

    /// An XRPC call through the executor, with `Authorization: DPoP`.
    func xrpc(
        _ method: HTTPMethod,
        _ name: String,
        query: [(String, String)] = [],
        json: [String: Any]? = nil,
        body: Data? = nil,
        contentType: String? = nil,
        accessToken: String
    ) async throws -> HTTPResponse {
        try await executor.send(
            xrpcRequest(method, name, query: query, json: json, body: body, contentType: contentType),
            accessToken: accessToken
        )
    }

    /// An XRPC request without DPoP headers.
    func xrpcRequest(
        _ method: HTTPMethod,
        _ name: String,
        query: [(String, String)] = [],
        json: [String: Any]? = nil,
        body: Data? = nil,
        contentType: String? = nil
    ) throws -> HTTPRequest {
        var components = try #require(
            URLComponents(url: url(endpoints.pds, "xrpc/\(name)"), resolvingAgainstBaseURL: false)
        )
        if !query.isEmpty {
            components.percentEncodedQuery = String(decoding: FormEscape.encode(query), as: UTF8.self)
        }
        var request = HTTPRequest(method: method, url: try #require(components.url))
        if let json {
            request.body = try JSONSerialization.data(withJSONObject: json)
            request.headers.add(name: "Content-Type", value: "application/json")
        } else if let body {
            request.body = body
            request.headers.add(name: "Content-Type", value: contentType ?? "application/octet-stream")
        }
        return request
    }
}

/// The secrets of one authorization flow.
struct FlowSecrets: Sendable {
    let pkce = TestPKCE()
    let state = Base64URL.encode(SystemRandomNumberGenerator.bytes(16))
}

/// A PKCE pair made the way RFC 7636 §4.1–4.2 says, independently of the client's own code.
struct TestPKCE: Sendable {
    let verifier = Base64URL.encode(SystemRandomNumberGenerator.bytes(32))
    var challenge: String { Base64URL.encode(SHA256.hash(data: Data(verifier.utf8))) }
}

extension SystemRandomNumberGenerator {
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// A token response.
struct Tokens: Sendable {
    let accessToken: String
    let refreshToken: String
    let subject: String
    let scope: String
    let expiresIn: Int

    init(_ response: HTTPResponse) throws {
        let json = try response.json()
        #expect(json["token_type"] as? String == "DPoP")
        accessToken = try #require(json["access_token"] as? String)
        refreshToken = try #require(json["refresh_token"] as? String)
        subject = try #require(json["sub"] as? String)
        scope = try #require(json["scope"] as? String)
        expiresIn = try #require(json["expires_in"] as? Int)
    }
}
