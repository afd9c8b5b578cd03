import ATOAuthTesting
import Foundation
import Sandbox
import Testing

@Suite("A client in a web page can use the sandbox's servers, as it can a real PDS and authorization server")
struct BrowserAccessTests {
    static let page = "Origin: http://127.0.0.1:5173"

    @Test("a preflight for a DPoP request is answered: any origin, the DPoP header, the nonce readable")
    func preflight() async throws {
        try await withSandbox { sandbox in
            for url in [sandbox.endpoints.authorizationServer, sandbox.endpoints.pds] {
                let port = try #require(url.port)
                let answer = try await RawExchange.send(
                    "OPTIONS",
                    "/oauth/par",
                    port: port,
                    fields: [
                        Self.page, "Access-Control-Request-Method: POST",
                        "Access-Control-Request-Headers: dpop, content-type",
                    ]
                )
                #expect(answer.status == 204, "\(answer)")
                #expect(answer.headers["access-control-allow-origin"] == "*")
                let allowed = answer.headers["access-control-allow-headers"]?.lowercased() ?? ""
                #expect(allowed.contains("dpop") && allowed.contains("content-type"), "\(allowed)")
                #expect(answer.headers["access-control-allow-methods"]?.contains("POST") == true)
            }
            // A preflight is no XRPC request: it is not counted as one's head.
            let pds = try #require(sandbox.endpoints.pds.port)
            let xrpc = try await RawExchange.send(
                "OPTIONS",
                "/xrpc/com.atproto.server.getSession",
                port: pds,
                fields: [Self.page, "Access-Control-Request-Method: GET", "Access-Control-Request-Headers: dpop"]
            )
            #expect(xrpc.status == 204)
            #expect(sandbox.server.counters.xrpcRequestHeadsReceived == 0)
        }
    }

    @Test("an answer to a page, a refusal too, lets it read DPoP-Nonce and WWW-Authenticate; a program's is as before")
    func answers() async throws {
        try await withSandbox { sandbox in
            let authorization = try #require(sandbox.endpoints.authorizationServer.port)
            let par = try await RawExchange.send(
                "POST",
                "/oauth/par",
                port: authorization,
                fields: [Self.page, "Content-Type: application/x-www-form-urlencoded"],
                body: "client_id=x"
            )
            #expect(par.status == 400, "\(par)")
            #expect(par.headers["access-control-allow-origin"] == "*")
            #expect(par.headers["access-control-expose-headers"] == "DPoP-Nonce, WWW-Authenticate")
            #expect(par.headers["dpop-nonce"] != nil)

            let pds = try #require(sandbox.endpoints.pds.port)
            let call = try await RawExchange.send(
                "GET",
                "/xrpc/com.atproto.server.getSession",
                port: pds,
                fields: [Self.page, "Authorization: DPoP unknown"]
            )
            #expect(call.status == 401, "\(call)")
            #expect(call.headers["access-control-expose-headers"] == "DPoP-Nonce, WWW-Authenticate")
            #expect(call.headers["www-authenticate"] != nil)

            let program = try await RawExchange.send("GET", "/xrpc/com.atproto.server.getSession", port: pds)
            #expect(program.status == 401)
            #expect(program.headers["access-control-allow-origin"] == nil)
        }
    }
}
