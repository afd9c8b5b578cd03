import ATOAuthTesting
import Foundation
import HTTPTransport
import Testing

@Suite("AsyncHTTPClientTransport failures")
struct AsyncHTTPClientTransportFailureTests {
    /// Short limits, so failures show up fast.
    ///
    /// Each time bound below (60 s) is far under what the failure it rules out would take (a 300 s delay, a 300 s
    /// trickle, a 300 s timeout) and far over what success takes (well under a second), so it holds on a busy or
    /// briefly stalled 2-core machine.
    static let quick = AsyncHTTPClientTransport.Configuration(
        connectTimeout: .milliseconds(300),
        totalTimeout: .milliseconds(300)
    )

    /// Limits for the tests that must succeed (or fail for another reason than time): the in-process test server
    /// shares the machine's two cores with the whole parallel suite, so an answer may take tens of seconds to come.
    static func patient(maximumResponseBytes: Int = 1 << 20) -> AsyncHTTPClientTransport.Configuration {
        AsyncHTTPClientTransport.Configuration(
            connectTimeout: .seconds(300),
            totalTimeout: .seconds(600),
            maximumResponseBytes: maximumResponseBytes
        )
    }

    @Test("a server that answers after the total timeout fails with timeout, on time, and may have the request")
    func slowHead() async throws {
        try await LoopbackHTTPServer.withServer(
            handler: LoopbackHTTPServer.always(ScriptedResponse(delay: .seconds(300)))
        ) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.quick) { transport in
                let start = ContinuousClock.now
                let error = await #expect(throws: TransportError.timeout) {
                    try await transport.send(HTTPRequest(url: server.url("/slow")))
                }
                #expect(ContinuousClock.now - start < .seconds(60))
                #expect(error?.mayHaveReachedServer == true)
            }
        }
    }

    @Test("a server that closes the connection after reading the request: a failure that may have reached it")
    func hangUpAfterRequest() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.hangUp)) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.patient()) { transport in
                let error = await #expect(throws: TransportError.self) {
                    try await transport.send(HTTPRequest(method: .post, url: server.url("/oauth/token")))
                }
                #expect(!server.requests.isEmpty)
                #expect(error?.mayHaveReachedServer == true, "\(error.map(String.init(describing:)) ?? "no error")")
            }
        }
    }

    @Test("a body still trickling at the total timeout fails with timeout, on time")
    func slowBody() async throws {
        let handler: LoopbackHTTPServer.Handler = { _ in
            ScriptedResponse(body: Data(count: 100), trickle: .init(chunkSize: 10, interval: .seconds(30)))
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.quick) { transport in
                let start = ContinuousClock.now
                await #expect(throws: TransportError.timeout) {
                    try await transport.send(HTTPRequest(url: server.url("/trickle")))
                }
                #expect(ContinuousClock.now - start < .seconds(60))
            }
        }
    }

    @Test("a Content-Length above the cap is refused with responseTooLarge")
    func declaredTooLarge() async throws {
        try await LoopbackHTTPServer.withServer(
            handler: LoopbackHTTPServer.always(ScriptedResponse(body: Data(count: 4 << 20)))
        ) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.patient()) { transport in
                await #expect(throws: TransportError.responseTooLarge) {
                    try await transport.send(HTTPRequest(url: server.url("/big")))
                }
                #expect(server.requests.count == 1)
            }
        }
    }

    @Test("a chunked body is aborted with responseTooLarge as soon as it passes the cap")
    func streamedTooLarge() async throws {
        // 32 MiB in 16 KiB chunks every 10 ms would take 20 s to send whole; the cap is passed after 5 chunks.
        let handler: LoopbackHTTPServer.Handler = { _ in
            ScriptedResponse(
                body: Data(count: 32 << 20),
                trickle: .init(chunkSize: 16 << 10, interval: .milliseconds(10))
            )
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let configuration = AsyncHTTPClientTransport.Configuration(maximumResponseBytes: 64 << 10)
            try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
                let start = ContinuousClock.now
                await #expect(throws: TransportError.responseTooLarge) {
                    try await transport.send(HTTPRequest(url: server.url("/stream")))
                }
                #expect(ContinuousClock.now - start < .seconds(60))
            }
        }
    }

    @Test("a body of exactly the cap is accepted", arguments: [false, true])
    func bodyAtTheCap(chunked: Bool) async throws {
        let body = Data(repeating: 0x61, count: 64 << 10)
        let trickle = chunked ? ScriptedResponse.Trickle(chunkSize: 8 << 10, interval: .milliseconds(1)) : nil
        try await LoopbackHTTPServer.withServer(
            handler: LoopbackHTTPServer.always(ScriptedResponse(body: body, trickle: trickle))
        ) { server in
            try await AsyncHTTPClientTransport.withTransport(
                configuration: Self.patient(maximumResponseBytes: 64 << 10)
            ) { transport in
                let response = try await transport.send(HTTPRequest(url: server.url("/exact")))
                #expect(response.body == body)
            }
        }
    }

    @Test("a closed port fails fast with connectionFailed")
    func refused() async throws {
        // A port bound but not listened on: no parallel test's server can take it while the test runs.
        let closed = try ClosedPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)/closed?code=secret-code"))
        // A connect timeout far longer than the bound, so "fails fast" is told from "retried until the timeout"
        // even when the parallel suite keeps a 2-core machine busy for tens of seconds.
        try await AsyncHTTPClientTransport.withTransport(configuration: Self.patient()) { transport in
            let start = ContinuousClock.now
            let error = await #expect(throws: TransportError.connectionFailed) {
                try await transport.send(HTTPRequest(url: url))
            }
            #expect(ContinuousClock.now - start < .seconds(150))
            #expect(error?.description.contains("secret-code") == false)
            #expect(error?.underlying?.isEmpty == false)
            #expect(error?.mayHaveReachedServer == false, "\(error?.underlying ?? "")")
        }
        withExtendedLifetime(closed) {}
    }

    @Test("a connection whose handshake hangs fails with connectTimeout, on time")
    func connectTimeout() async throws {
        let blackhole = try await BlackholeListener.start()
        let configuration = AsyncHTTPClientTransport.Configuration(
            connectTimeout: .milliseconds(300),
            totalTimeout: .seconds(300)
        )
        try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
            let start = ContinuousClock.now
            let error = await #expect(throws: TransportError.connectTimeout) {
                try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(blackhole.port)/")!))
            }
            #expect(ContinuousClock.now - start < .seconds(60))
            #expect(error?.mayHaveReachedServer == false)
        }
        await blackhole.shutdown()
    }

    @Test("cancelling the calling task aborts the request with cancelled, promptly")
    func cancellation() async throws {
        try await LoopbackHTTPServer.withServer(
            handler: LoopbackHTTPServer.always(ScriptedResponse(delay: .seconds(300)))
        ) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let task = Task { try await transport.send(HTTPRequest(url: server.url("/wait"))) }
                for _ in 0..<200 where server.requests.isEmpty {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(server.requests.count == 1)

                let start = ContinuousClock.now
                task.cancel()
                let result = await task.result

                #expect(ContinuousClock.now - start < .seconds(60))
                let error = #expect(throws: TransportError.cancelled) { try result.get() }
                // The server had the request when the task was cancelled.
                #expect(error?.mayHaveReachedServer == true)
            }
        }
    }

    @Test("cancelling while a handshake hangs ends the call and the transport's shutdown at once")
    func cancellationDuringConnect() async throws {
        let blackhole = try await BlackholeListener.start()
        let configuration = AsyncHTTPClientTransport.Configuration(
            connectTimeout: .seconds(300),
            totalTimeout: .seconds(600)
        )
        let url = try #require(URL(string: "http://127.0.0.1:\(blackhole.port)/"))
        // As a command runs after Ctrl-C: the task that owns the transport is cancelled mid-request.
        let command = Task {
            try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
                try await transport.send(HTTPRequest(url: url))
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        command.cancel()
        let result = await command.result
        // The kernel gives up on the handshake after about two minutes; neither the call nor the shutdown waits.
        #expect(ContinuousClock.now - start < .seconds(60))
        #expect(throws: TransportError.cancelled) { try result.get() }
        await blackhole.shutdown()
    }

    @Test("a task cancelled before sending fails with cancelled and sends nothing")
    func cancelledBeforeSending() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.text("ok"))) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await transport.send(HTTPRequest(url: server.url("/never")))
                }
                let error = await #expect(throws: TransportError.cancelled) { try await task.value }
                #expect(server.requests.isEmpty)
                #expect(error?.mayHaveReachedServer == false)
            }
        }
    }

    @Test(
        "a URL that is not absolute http or https, or whose port does not fit TCP, fails with invalidURL",
        arguments: [
            "ftp://example.com/a", "mailto:a@b.c", "/relative", "https://example.com:70000/", "http://127.0.0.1:0/",
            "https://example.com:99999999999999999999/",
        ]
    )
    func invalidURL(url: String) async throws {
        try await AsyncHTTPClientTransport.withTransport { transport in
            let error = await #expect(throws: TransportError.invalidURL) {
                try await transport.send(HTTPRequest(url: try #require(URL(string: url))))
            }
            #expect(error?.description.hasPrefix("Cannot send GET ") == true)
        }
    }

    @Test("a timeout's description names the request without its query string")
    func descriptionHasNoQuery() async throws {
        try await LoopbackHTTPServer.withServer(
            handler: LoopbackHTTPServer.always(ScriptedResponse(delay: .seconds(300)))
        ) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.quick) { transport in
                let url = server.url("/oauth/token?code=s3cr3t-code&state=st4te#frag")

                let error = try #require(
                    await #expect(throws: TransportError.timeout) {
                        try await transport.send(HTTPRequest(method: .post, url: url))
                    }
                )

                let bare = "http://127.0.0.1:\(server.port)/oauth/token"
                #expect(error.url == bare)
                #expect(error.method == .post)
                #expect(
                    error.description
                        == "Timed out after 300 ms waiting for POST \(bare) — the server is slow or unreachable; try again later."
                )
                for secret in ["s3cr3t", "st4te", "frag", "?"] {
                    #expect(!error.description.contains(secret))
                    #expect(!(error.underlying ?? "").contains(secret))
                }
            }
        }
    }
}
