import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Synchronization
import Testing

/// The client metadata documents of the confidential clients the tests sign in with.
enum ConfidentialDocuments {
    /// A configured (never fetched) confidential web client.
    static let clientID = "https://confidential.example/client-metadata.json"
    static let redirectURI = "https://confidential.example/callback"
    static let scope = "atproto transition:generic"

    /// A confidential client's document: `private_key_jwt` with ES256, `jwks` inline when `keys` is given,
    /// `jwks_uri` when `jwksURI` is; `changes` replace members (`NSNull()` removes one).
    static func document(
        clientID: String = ConfidentialDocuments.clientID,
        redirectURI: String = ConfidentialDocuments.redirectURI,
        keys: [TestSigningKey]? = nil,
        jwksURI: String? = nil,
        changes: [String: Any] = [:]
    ) throws -> Data {
        var metadata: [String: Any] = [
            "client_id": clientID, "application_type": "web", "token_endpoint_auth_method": "private_key_jwt",
            "token_endpoint_auth_signing_alg": "ES256", "dpop_bound_access_tokens": true,
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"], "scope": scope,
            "redirect_uris": [redirectURI],
        ]
        if let keys { metadata["jwks"] = TestSigningKey.jwks(keys) }
        if let jwksURI { metadata["jwks_uri"] = jwksURI }
        for (name, value) in changes {
            if value is NSNull {
                metadata.removeValue(forKey: name)
            } else {
                metadata[name] = value
            }
        }
        return try JSONSerialization.data(withJSONObject: metadata)
    }

    /// A JWK Set document of `keys`.
    static func jwksDocument(_ keys: [TestSigningKey]) throws -> Data {
        try JSONSerialization.data(withJSONObject: TestSigningKey.jwks(keys))
    }

    /// A sandbox configuration with the configured client's document, with `keys` inline.
    static func configuration(keys: [TestSigningKey]) throws -> SandboxConfiguration {
        SandboxConfiguration(autoApprove: true, clientMetadataDocuments: [clientID: try document(keys: keys)])
    }
}

/// A confidential client for the tests: the sandbox test client (its DPoP key, nonces and requests) plus client
/// assertions signed with whichever of its keys a step is given.
struct ConfidentialTestClient: Sendable {
    let base: SandboxTestClient

    init(
        _ sandbox: SandboxHarness,
        clientID: String = ConfidentialDocuments.clientID,
        redirectURI: String = ConfidentialDocuments.redirectURI
    ) {
        base = sandbox.client(redirectURI: redirectURI, clientID: clientID, scope: ConfidentialDocuments.scope)
    }

    var clientID: String { base.clientID }
    var endpoints: SandboxEndpoints { base.endpoints }
    var now: Date { base.harness.clock.now() }

    /// A fresh assertion by `key`; `edit` changes its header and claims.
    func assertion(
        _ key: TestSigningKey,
        edit: (inout [String: Any], inout [String: Any]) -> Void = { _, _ in }
    ) throws -> String {
        try key.assertion(clientID: clientID, audience: endpoints.issuer, issuedAt: now, edit: edit)
    }

    /// `client_assertion_type` and `client_assertion`.
    static func authentication(_ assertion: String) -> [(String, String)] {
        [("client_assertion_type", TestSigningKey.assertionType), ("client_assertion", assertion)]
    }

    /// `client_assertion_type` and a fresh `client_assertion` by `key`.
    func authentication(_ key: TestSigningKey) throws -> [(String, String)] {
        Self.authentication(try assertion(key))
    }

    /// The PAR answer, whatever its status, with `authentication` in the form.
    func pushAuthorization(_ flow: FlowSecrets, authentication: [(String, String)]) async throws -> HTTPResponse {
        try await base.pushedAuthorizationResponse(base.parParameters(flow) + authentication)
    }

    /// PAR (signed by `key`) and auto-approval; returns the code.
    func authorizationCode(_ flow: FlowSecrets, key: TestSigningKey) async throws -> String {
        let pushed = try await pushAuthorization(flow, authentication: try authentication(key))
        #expect(pushed.status == 201, "PAR failed: \(pushed.text)")
        let requestURI = try #require(try pushed.json()["request_uri"] as? String)
        let redirect = try await base.openAuthorization(requestURI: requestURI)
        #expect(redirect.status == 302)
        #expect(redirect.headers["Location"]?.hasPrefix(base.redirectURI + "?") == true)
        let query = try redirect.locationQuery()
        #expect(query["state"] == flow.state)
        #expect(query["iss"] == endpoints.issuer)
        return try #require(query["code"])
    }

    /// The code exchange's answer, whatever its status, with `authentication` in the form.
    func exchange(
        _ code: String,
        _ flow: FlowSecrets,
        authentication: [(String, String)]
    ) async throws -> HTTPResponse {
        try await base.tokenRequest(base.codeGrantParameters(code, flow) + authentication)
    }

    /// The whole sign-in, every step signed by `key` (the PAR by `parKey` when given).
    func signIn(key: TestSigningKey, parKey: TestSigningKey? = nil) async throws -> Tokens {
        let flow = FlowSecrets()
        let code = try await authorizationCode(flow, key: parKey ?? key)
        let response = try await exchange(code, flow, authentication: try authentication(key))
        #expect(response.status == 200, "token request failed: \(response.text)")
        return try Tokens(response)
    }

    /// A refresh, whatever its answer, with `authentication` in the form (and `client_id` unless told otherwise).
    func refresh(
        _ refreshToken: String,
        authentication: [(String, String)],
        sendsClientID: Bool = true
    ) async throws -> HTTPResponse {
        var parameters = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if sendsClientID { parameters.append(("client_id", clientID)) }
        return try await base.tokenRequest(parameters + authentication)
    }

    /// A refresh signed by `key`, whatever its answer.
    func refresh(_ refreshToken: String, key: TestSigningKey) async throws -> HTTPResponse {
        try await refresh(refreshToken, authentication: try authentication(key))
    }

    /// A revocation, whatever its answer, with `authentication` in the form (and `client_id` when told).
    func revoke(
        _ token: String,
        authentication: [(String, String)],
        sendsClientID: Bool = true
    ) async throws -> HTTPResponse {
        var parameters = [("token", token), ("token_type_hint", "refresh_token")]
        if sendsClientID { parameters.append(("client_id", clientID)) }
        return try await base.executor.send(
            base.formRequest(base.url(endpoints.authorizationServer, "oauth/revoke"), parameters + authentication)
        )
    }

    /// `getSession` with an access token, through the executor.
    func getSession(_ accessToken: String) async throws -> HTTPResponse {
        try await base.xrpc(.get, "com.atproto.server.getSession", accessToken: accessToken)
    }
}

/// Documents served by a ``LoopbackHTTPServer`` in a test, by path; changed while it serves.
final class ServedDocuments: Sendable {
    /// What each path answers.
    enum Answer: Sendable {
        case json(Data)
        case response(status: Int, headers: [(name: String, value: String)], body: Data)
    }

    private let answers = Mutex<[String: Answer]>([:])

    func set(_ path: String, _ answer: Answer) {
        answers.withLock { $0[path] = answer }
    }

    func answer(_ path: String) -> Answer? {
        answers.withLock { $0[path] }
    }
}
