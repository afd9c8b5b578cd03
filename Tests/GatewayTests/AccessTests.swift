import ATOAuthTesting
import Foundation
import Gateway
import HTTPTransport
import Testing

@Suite("Only local programs with the token get in")
struct AccessTests {
    @Test("the health check answers without a token; a call without the token, or with another, is 401")
    func token() async throws {
        try await SandboxWorld.with { world in
            try await RunningGateway.with(world.accounts(), transport: world.transport) { gateway in
                let health = try await gateway.send("/_gateway/health", authorized: false)
                #expect(health.status == 200)
                #expect(String(decoding: health.body, as: UTF8.self) == #"{"status":"ok"}"#)
                let credentials: [HTTPHeaders] = [
                    [:], ["Authorization": "Bearer not-the-gateway-token"], ["Authorization": "Basic \(gateway.token)"],
                ]
                for headers in credentials {
                    for target in ["/xrpc/com.atproto.server.getSession", "/_gateway/metrics"] {
                        let refused = try await gateway.send(target, headers: headers, authorized: false)
                        #expect(refused.status == 401, "\(target)")
                        #expect(try GatewayClient.errorName(refused) == "AuthRequired")
                        #expect(refused.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
                        #expect(!String(decoding: refused.body, as: UTF8.self).contains(gateway.token))
                    }
                }
            }
        }
    }

    @Test("a Host other than the gateway's address is 403, as is a request without one; its own address is served")
    func rebinding() async throws {
        try await SandboxWorld.with { world in
            try await RunningGateway.with(world.accounts(), transport: world.transport) { gateway in
                for host in ["attacker.example:\(gateway.port)", "127.0.0.1.attacker.example:\(gateway.port)", nil] {
                    let answer = try await raw(gateway, host: host)
                    #expect(answer.hasPrefix("HTTP/1.1 403"), "\(host ?? "no Host")")
                    #expect(answer.contains(#""error":"Forbidden""#))
                }
                for host in ["127.0.0.1:\(gateway.port)", "localhost:\(gateway.port)", "LOCALHOST:\(gateway.port)"] {
                    #expect(try await raw(gateway, host: host).hasPrefix("HTTP/1.1 200"), "\(host)")
                }
                // An absolute-form target's host is the one that counts (RFC 9112 §3.2.2), whatever Host says.
                let own = "127.0.0.1:\(gateway.port)"
                let absolute = try await raw(gateway, host: own, target: "http://attacker.example:\(gateway.port)")
                #expect(absolute.hasPrefix("HTTP/1.1 403"), "\(absolute)")
                #expect(try await raw(gateway, host: own, target: "http://\(own)").hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    @Test("a request a browser sends (Origin, Sec-Fetch-Site) is 403 even with the token; Node's Sec-Fetch-Mode is not")
    func browser() async throws {
        try await SandboxWorld.with { world in
            try await RunningGateway.with(world.accounts(), transport: world.transport) { gateway in
                let browserHeaders: [HTTPHeaders] = [
                    ["Origin": "https://attacker.example"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"],
                ]
                for headers in browserHeaders {
                    let refused = try await gateway.send("/xrpc/com.atproto.server.getSession", headers: headers)
                    #expect(refused.status == 403)
                    #expect(try GatewayClient.errorName(refused) == "Forbidden")
                }
                let node = try await gateway.send("/_gateway/health", headers: ["Sec-Fetch-Mode": "cors"])
                #expect(node.status == 200)
            }
        }
    }

    @Test("a Content-Length over the limit is 413 before a byte of the body is read, and the connection closes")
    func oversizedBody() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            try await RunningGateway.with(
                accounts,
                transport: world.transport,
                configure: { $0.maximumBodyBytes = 1 << 20 }
            ) {
                gateway in
                let connection = try RawHTTPConnection(port: gateway.port)
                connection.sendRaw(
                    "POST /xrpc/com.atproto.repo.uploadBlob HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n"
                        + "Authorization: Bearer \(gateway.token)\r\nContent-Type: application/octet-stream\r\n"
                        + "Content-Length: \(64 << 20)\r\n\r\n"
                )
                let answer = await connection.readAll()
                #expect(answer.hasPrefix("HTTP/1.1 413"))
                #expect(answer.contains(#""error":"PayloadTooLarge""#))
            }
        }
    }

    @Test("a body a little over the limit is not read: 413, its connection closed, and the next call is answered")
    func slightlyOversizedBody() async throws {
        try await RunningGateway.withSignedIn(
            configure: { $0.maximumBodyBytes = 1024 },
            body: { world, gateway in
                let refused = try await gateway.send(
                    "/xrpc/com.atproto.repo.uploadBlob",
                    method: .post,
                    headers: ["Content-Type": "application/octet-stream"],
                    body: Data(count: 2048)
                )
                #expect(refused.status == 413)
                #expect(try GatewayClient.errorName(refused) == "PayloadTooLarge")
                #expect(try await gateway.send("/xrpc/com.atproto.server.getSession").status == 200)
            }
        )
    }

    @Test("a method other than GET and POST is 405, and a path that is no NSID 400")
    func malformed() async throws {
        try await SandboxWorld.with { world in
            try await RunningGateway.with(world.accounts(), transport: world.transport) { gateway in
                let put = try await gateway.send(
                    "/xrpc/com.atproto.repo.putRecord",
                    method: .put,
                    body: Data("{}".utf8)
                )
                #expect(put.status == 405)
                #expect(put.headers["Allow"] == "GET, POST")
                let notNSID = try await gateway.send("/xrpc/not-an-nsid")
                #expect(notNSID.status == 400)
                #expect(try GatewayClient.errorName(notNSID) == "InvalidRequest")
                let elsewhere = try await gateway.send("/somewhere/else")
                #expect(elsewhere.status == 404)
            }
        }
    }

    /// `GET /_gateway/health` on a connection of its own, with this `Host` (none when `nil`); the whole answer.
    private func raw(_ gateway: GatewayClient, host: String?, target origin: String = "") async throws -> String {
        let connection = try RawHTTPConnection(port: gateway.port)
        connection.sendRequest("GET", "\(origin)/_gateway/health", host: host, fields: ["Connection: close"])
        return await connection.readAll()
    }
}
