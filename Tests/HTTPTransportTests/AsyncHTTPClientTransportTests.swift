import ATOAuthTesting
import Foundation
import HTTPTransport
import Testing

@Suite("AsyncHTTPClientTransport exchanges")
struct AsyncHTTPClientTransportTests {
    @Test("a GET returns status, headers and body intact, and the server sees path, query and headers")
    func getRoundTrip() async throws {
        let handler: LoopbackHTTPServer.Handler = { request in
            ScriptedResponse(
                status: 203,
                headers: [
                    ("Content-Type", "application/json"), ("X-Seen", request.target), ("X-Two", "a"), ("X-Two", "b"),
                ],
                body: Data(#"{"ok":true}"#.utf8)
            )
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                var headers: HTTPHeaders = ["Accept": "application/json"]
                headers.add(name: "X-Repeat", value: "1")
                headers.add(name: "X-Repeat", value: "2")
                let url = server.url("/xrpc/com.example.get?actor=did%3Aplc%3Aabc&limit=2")

                let response = try await transport.send(HTTPRequest(url: url, headers: headers))

                #expect(response.status == 203)
                #expect(response.headers["content-type"] == "application/json")
                #expect(response.headers["X-Seen"] == "/xrpc/com.example.get?actor=did%3Aplc%3Aabc&limit=2")
                #expect(response.headers.values(for: "x-two") == ["a", "b"])
                #expect(response.body == Data(#"{"ok":true}"#.utf8))
                let recorded = try #require(server.requests.first)
                #expect(recorded.method == "GET")
                #expect(recorded.path == "/xrpc/com.example.get")
                #expect(recorded.query == "actor=did%3Aplc%3Aabc&limit=2")
                #expect(recorded.header("accept") == "application/json")
                #expect(recorded.headers.filter { $0.name == "X-Repeat" }.map(\.value) == ["1", "2"])
                #expect(recorded.body.isEmpty)
            }
        }
    }

    @Test("a POST delivers every body byte and header, and the answer's bytes come back unchanged")
    func postRoundTrip() async throws {
        let body = Data.patterned(64 << 10, step: 31, start: 7)
        let handler: LoopbackHTTPServer.Handler = { request in
            ScriptedResponse(status: 201, headers: [("Content-Type", "application/octet-stream")], body: request.body)
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let request = HTTPRequest(
                    method: .post,
                    url: server.url("/oauth/par"),
                    headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": "proof.jwt.here"],
                    body: body
                )

                let response = try await transport.send(request)

                #expect(response.status == 201)
                #expect(response.body == body)
                let recorded = try #require(server.requests.first)
                #expect(recorded.method == "POST")
                #expect(recorded.body == body)
                #expect(recorded.header("Content-Length") == "65536")
                #expect(recorded.header("Content-Type") == "application/x-www-form-urlencoded")
                #expect(recorded.header("DPoP") == "proof.jwt.here")
            }
        }
    }

    @Test(
        "a redirect comes back as the response and its target is never requested",
        arguments: [301, 302, 303, 307, 308]
    )
    func redirectIsNotFollowed(status: Int) async throws {
        let handler: LoopbackHTTPServer.Handler = { request in
            request.path == "/start" ? .redirect(to: "/target", status: status) : .text("followed!")
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let response = try await transport.send(HTTPRequest(url: server.url("/start")))

                #expect(response.status == status)
                #expect(response.headers["Location"] == "/target")
                #expect(server.requests.map(\.path) == ["/start"])
            }
        }
    }

    @Test("sequential requests reuse one kept-alive connection")
    func keepAlive() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.json("{}"))) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                for index in 0..<50 {
                    let response = try await transport.send(HTTPRequest(url: server.url("/n?i=\(index)")))
                    #expect(response.status == 200)
                }
                #expect(server.requests.count == 50)
                #expect(server.connectionCount == 1)
            }
        }
    }

    @Test("concurrent requests all succeed on a small pool of connections")
    func concurrentRequests() async throws {
        let handler: LoopbackHTTPServer.Handler = { request in
            try? await Task.sleep(for: .milliseconds(5))  // A slow answer on purpose, so the requests overlap.
            return .text(request.target)
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let patient = AsyncHTTPClientTransportFailureTests.patient()
            try await AsyncHTTPClientTransport.withTransport(configuration: patient) { transport in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<100 {
                        group.addTask {
                            let response = try await transport.send(HTTPRequest(url: server.url("/c?i=\(index)")))
                            #expect(String(decoding: response.body, as: UTF8.self) == "/c?i=\(index)")
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(server.requests.count == 100)
                #expect(server.connectionCount <= 8)
            }
        }
    }

    @Test("the configured User-Agent is added unless the request brings its own")
    func userAgent() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.text("ok"))) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                _ = try await transport.send(HTTPRequest(url: server.url("/default")))
                _ = try await transport.send(HTTPRequest(url: server.url("/own"), headers: ["user-agent": "mine/1"]))
            }
            try await AsyncHTTPClientTransport.withTransport(configuration: .init(userAgent: nil)) { transport in
                _ = try await transport.send(HTTPRequest(url: server.url("/none")))
            }
            let agents = server.requests.map { $0.headers.filter { $0.name.lowercased() == "user-agent" }.map(\.value) }
            #expect(agents == [[AsyncHTTPClientTransport.Configuration.defaultUserAgent], ["mine/1"], []])
            #expect(AsyncHTTPClientTransport.Configuration.defaultUserAgent.hasPrefix("atoauth/"))
        }
    }

    @Test("a HEAD answer's Content-Length is not held against the size cap")
    func headIgnoresContentLength() async throws {
        let handler: LoopbackHTTPServer.Handler = { _ in ScriptedResponse(body: Data(count: 2 << 20)) }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let response = try await transport.send(HTTPRequest(method: .head, url: server.url("/big")))

                #expect(response.status == 200)
                #expect(response.headers["Content-Length"] == "2097152")
                #expect(response.body.isEmpty)
            }
        }
    }

    @Test("withTransport shuts the transport down when its body throws")
    func withTransportShutsDownOnThrow() async throws {
        struct Failure: Error {}
        var escaped: AsyncHTTPClientTransport?
        await #expect(throws: Failure.self) {
            try await AsyncHTTPClientTransport.withTransport { transport in
                escaped = transport
                throw Failure()
            }
        }
        let transport = try #require(escaped)
        // A second shutdown fails: the first already happened.
        await #expect(throws: (any Error).self) { try await transport.shutdown() }
    }
}
