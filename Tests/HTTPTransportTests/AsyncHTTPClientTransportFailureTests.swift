import ATOAuthTesting
import Foundation
import HTTPTransport
import Testing

@Suite("AsyncHTTPClientTransport failures")
struct AsyncHTTPClientTransportFailureTests {
    /// Short limits, so failures show up fast.
    ///
    /// "On time" is checked by what had happened when the call ended, never by a time bound: the server had not
    /// finished its slow answer (``LoopbackHTTPServer/answersFinished``), or the error names the limit that ended it.
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
                let error = await #expect(throws: TransportError.timeout) {
                    try await transport.send(HTTPRequest(url: server.url("/slow")))
                }
                #expect(server.answersFinished == 0, "the call waited for the answer")
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
                // Cut, not unreachable: the server read the request.
                #expect(
                    error?.description.contains("was cut by the server or the network") == true,
                    "\(error.map(String.init(describing:)) ?? "no error")"
                )
            }
        }
    }

    @Test("a body still trickling at the total timeout fails with timeout, on time")
    func slowBody() async throws {
        let handler: LoopbackHTTPServer.Handler = { _ in
            ScriptedResponse(body: Data(count: 100), trickle: (chunkSize: 10, interval: .seconds(30)))
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: Self.quick) { transport in
                await #expect(throws: TransportError.timeout) {
                    try await transport.send(HTTPRequest(url: server.url("/trickle")))
                }
                #expect(server.answersFinished == 0, "the call waited for the whole body")
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
                trickle: (chunkSize: 16 << 10, interval: .milliseconds(10))
            )
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let configuration = AsyncHTTPClientTransport.Configuration(maximumResponseBytes: 64 << 10)
            try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
                await #expect(throws: TransportError.responseTooLarge) {
                    try await transport.send(HTTPRequest(url: server.url("/stream")))
                }
                #expect(server.answersFinished == 0, "the call read past the cap to the end")
            }
        }
    }

    @Test("a body of exactly the cap is accepted", arguments: [false, true])
    func bodyAtTheCap(chunked: Bool) async throws {
        let body = Data(repeating: 0x61, count: 64 << 10)
        let trickle: ScriptedResponse.Trickle? = chunked ? (chunkSize: 8 << 10, interval: .milliseconds(1)) : nil
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
        // A connect timeout of minutes: a transport that retried a refused connection until then would fail with
        // connectTimeout, so connectionFailed itself says that it failed at once.
        try await AsyncHTTPClientTransport.withTransport(configuration: Self.patient()) { transport in
            let error = await #expect(throws: TransportError.connectionFailed) {
                try await transport.send(HTTPRequest(url: url))
            }
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
        // A call that outlasted the 300 ms connect limit would end at the 300 s total limit, as a timeout.
        try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
            let error = await #expect(throws: TransportError.connectTimeout) {
                try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(blackhole.port)/")!))
            }
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
                try await Waiting.until("the request to reach the server") { !server.requests.isEmpty }
                #expect(server.requests.count == 1)

                task.cancel()
                let result = await task.result

                #expect(server.answersFinished == 0, "the call waited for the 300 s answer")
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
        // A handshake of the test's own, started beside the call's, witnesses that the kernel has not given up on
        // hanging handshakes (after about two minutes) when the call ends: neither the call nor the shutdown waits.
        let witness = try BlackholeWitness(port: blackhole.port)
        try await Waiting.until("the call's handshake and the witness's to hang") { blackhole.hangingHandshakes == 2 }
        command.cancel()
        let result = await command.result
        #expect(throws: TransportError.cancelled) { try result.get() }
        #expect(blackhole.hangingHandshakes >= 1, "the kernel had given up on the handshakes: the call waited for it")
        withExtendedLifetime(witness) {}
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
