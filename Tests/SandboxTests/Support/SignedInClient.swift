import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

/// A client that signed in and knows the PDS's nonce, for tests that then send hand-made resource requests.
struct SignedInClient: Sendable {
    let client: SandboxTestClient
    let tokens: Tokens

    init(_ sandbox: SandboxHarness, loginHint: String? = nil) async throws {
        client = sandbox.client()
        tokens = try await client.signIn(loginHint: loginHint)
        let first = try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: tokens.accessToken)
        #expect(first.status == 200)
    }

    /// A `POST` of `json` to the PDS's method `name`, with the access token.
    func post(_ name: String, _ json: [String: Any]) async throws -> HTTPResponse {
        try await client.xrpc(.post, name, json: json, accessToken: tokens.accessToken)
    }

    var pdsNonce: String? { client.nonces.nonce(for: client.endpoints.pds.absoluteString) }
    var getSessionURL: URL { client.url(client.endpoints.pds, "xrpc/com.atproto.server.getSession") }

    /// `getSession` with exactly the headers given.
    func getSession(authorization: String?, proof: String?) async throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let authorization { headers.add(name: "Authorization", value: authorization) }
        if let proof { headers.add(name: "DPoP", value: proof) }
        return try await client.send(HTTPRequest(method: .get, url: getSessionURL, headers: headers))
    }

    /// `getSession` with `Authorization: DPoP <token>` and the given proof.
    func getSession(proof: String) async throws -> HTTPResponse {
        try await getSession(authorization: "DPoP \(tokens.accessToken)", proof: proof)
    }
}
