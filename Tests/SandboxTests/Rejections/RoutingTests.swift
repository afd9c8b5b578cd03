import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("Each origin's router answers 405 for another method on a path it serves, and 404 (or 501) for the rest")
struct RoutingTests {
    /// A request with no body to `path` of `origin`.
    static func send(
        _ sandbox: SandboxHarness,
        _ method: HTTPMethod,
        _ origin: URL,
        _ path: String
    ) async throws
        -> HTTPResponse
    {
        try await sandbox.transport.send(HTTPRequest(method: method, url: origin.appending(path: path)))
    }

    @Test("the authorization server: 405 invalid_request for a known path, 404 not_found otherwise, both logged")
    func authorizationServer() async throws {
        try await withSandbox { sandbox in
            let origin = sandbox.endpoints.authorizationServer
            for path in ["oauth/par", "oauth/token", "oauth/revoke"] {
                let response = try await Self.send(sandbox, .get, origin, path)
                #expect(response.status == 405, "\(path)")
                #expect(response.errorCode == "invalid_request", "\(path)")
                #expect(response.headers["Allow"] == "POST", "\(path)")
            }
            for path in [".well-known/oauth-authorization-server", "_sandbox/counters"] {
                #expect(try await Self.send(sandbox, .put, origin, path).status == 405, "\(path)")
            }
            let missing = try await Self.send(sandbox, .get, origin, "oauth/nothing")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            #expect(sandbox.logMessages.contains("rejected GET /oauth/par: method GET is not allowed here"))
            #expect(
                sandbox.logMessages.contains(
                    "rejected GET /oauth/nothing: no such endpoint on the authorization server"
                )
            )
            #expect(sandbox.server.counters.totalRejections == 6)
        }
    }

    @Test(
        "the PDS: 400 for a method sent with the other verb (a nonce when DPoP-authenticated); 501 for an unknown one"
    )
    func pds() async throws {
        try await withSandbox { sandbox in
            let origin = sandbox.endpoints.pds
            let getSession = try await Self.send(sandbox, .post, origin, "xrpc/com.atproto.server.getSession")
            #expect(getSession.status == 400)
            #expect(getSession.errorCode == "InvalidRequest")
            #expect(try getSession.json()["message"] as? String == "Incorrect HTTP method (POST) expected GET")
            #expect(getSession.headers["DPoP-Nonce"] != nil)
            let resolve = try await Self.send(sandbox, .post, origin, "xrpc/com.atproto.identity.resolveHandle")
            #expect(resolve.status == 400)
            #expect(resolve.headers["DPoP-Nonce"] == nil)
            let createSession = try await Self.send(sandbox, .get, origin, "xrpc/com.atproto.server.createSession")
            #expect(createSession.status == 400)
            #expect(try createSession.json()["message"] as? String == "Incorrect HTTP method (GET) expected POST")
            let unknown = try await Self.send(sandbox, .get, origin, "xrpc/com.example.nothing")
            #expect(unknown.status == 501)
            #expect(unknown.errorCode == "MethodNotImplemented")
            let other = try await Self.send(sandbox, .get, origin, "nothing")
            #expect(other.status == 404)
            #expect(other.errorCode == "NotFound")
            #expect(sandbox.server.counters.xrpcRequestsReceived == 4)
        }
    }

    @Test("the PLC directory: 405 for any method but GET and HEAD, 404 for what is not a hosted did:plc")
    func plcDirectory() async throws {
        try await withSandbox { sandbox in
            let origin = sandbox.endpoints.plcDirectory
            let did = SandboxAccount.derivedDID(for: "alice.test")
            let document = try await Self.send(sandbox, .get, origin, did)
            #expect(document.status == 200)
            #expect(try await Self.send(sandbox, .head, origin, did).status == 200)
            let post = try await Self.send(sandbox, .post, origin, did)
            #expect(post.status == 405)
            #expect(post.headers["Allow"] == "GET, HEAD")
            #expect(try await Self.send(sandbox, .get, origin, "did:plc:nobodyishostedhere").status == 404)
            #expect(try await Self.send(sandbox, .get, origin, "a/b").status == 404)
            #expect(try await Self.send(sandbox, .get, origin, "").status == 200)
        }
    }
}
