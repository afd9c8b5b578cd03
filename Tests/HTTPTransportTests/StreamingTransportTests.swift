import ATOAuthTesting
import Foundation
import HTTPTransport
import Synchronization
import Testing

@Suite("Streamed exchanges: bodies sent in chunks, answers read as they come")
struct StreamingTransportTests {
    static func pattern(_ count: Int) -> Data {
        Data.patterned(count, step: 131, start: 17)
    }

    @Test("an 8 MiB body read by position reaches the server whole, and its 8 MiB echo comes back in chunks")
    func largeRoundTrip() async throws {
        let body = Self.pattern(8 << 20)
        let echo: LoopbackHTTPServer.Handler = { request in
            ScriptedResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body)
        }
        try await LoopbackHTTPServer.withServer(handler: echo) { server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let request = HTTPRequest(
                    method: .post,
                    url: server.url("/xrpc/com.atproto.repo.uploadBlob"),
                    headers: ["Content-Type": "application/octet-stream"]
                )
                let response = try await transport.stream(request, body: .bytes(body))
                #expect(response.status == 200)
                var received = Data()
                var chunks = 0
                for try await chunk in response.body {
                    received.append(chunk)
                    chunks += 1
                }
                #expect(received == body)
                #expect(chunks > 1)
                let recorded = try #require(server.requests.first)
                #expect(recorded.header("content-length") == String(body.count))
                #expect(recorded.body == body)
            }
        }
    }

    @Test("a body that keeps moving may outlast the total timeout; one that stops fails about when it is up")
    func bodyTimeouts() async throws {
        let echo: LoopbackHTTPServer.Handler = { request in ScriptedResponse(status: 200, body: request.body) }
        try await LoopbackHTTPServer.withServer(handler: echo) { server in
            // The limit is twenty times the pause between two pieces, so a pause stretched by a busy machine stays
            // far below it.
            let limits = AsyncHTTPClientTransport.Configuration(totalTimeout: .seconds(10))
            try await AsyncHTTPClientTransport.withTransport(configuration: limits) { transport in
                let request = HTTPRequest(method: .post, url: server.url("/upload"))
                // 24 pieces half a second apart: twelve seconds in all, never ten without a byte.
                let moving = HTTPRequestBody(length: 24 * 1024) { offset, count in
                    try await Task.sleep(for: .milliseconds(500))  // Pacing a slow upload on purpose.
                    return Self.pattern(24 * 1024).subdata(in: offset..<(offset + min(count, 1024)))
                }
                let started = ContinuousClock.now
                let answer = try await transport.stream(request, body: moving)
                #expect(answer.status == 200)
                #expect(try await answer.body.collect(upTo: 1 << 20) == Self.pattern(24 * 1024))
                #expect(ContinuousClock.now - started > .seconds(11))

                // One piece, then nothing: the second piece would come only after a minute, long past the limit.
                let resumed = Flag()
                let stopped = HTTPRequestBody(length: 2048) { offset, _ in
                    if offset == 0 { return Self.pattern(1024) }
                    try await Task.sleep(for: .seconds(60))  // A client that stalls on purpose.
                    resumed.raise()
                    return Data()
                }
                await #expect(throws: TransportError.self) { try await transport.stream(request, body: stopped) }
                #expect(!resumed.isRaised, "the call waited for the stalled body to go on")
            }
        }
    }

    @Test("a streamed answer is not capped by the transport's whole-body limit; a sent one still is")
    func noCapWhenStreamed() async throws {
        let large = Self.pattern(3 << 20)
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(ScriptedResponse(body: large))) {
            server in
            try await AsyncHTTPClientTransport.withTransport { transport in
                let request = HTTPRequest(url: server.url("/blob"))
                let streamed = try await transport.stream(request, body: nil)
                #expect(try await streamed.body.collect(upTo: 4 << 20) == large)
                await #expect(throws: TransportError.self) { try await transport.send(request) }
            }
        }
    }

    @Test("peeking reads a small body whole; a large one is given back from its first byte")
    func peek() async throws {
        let small = Data("{\"error\":\"use_dpop_nonce\"}".utf8)
        let (whole, again) = try await HTTPResponseBody.whole(small).peek(upTo: 64)
        #expect(whole == small)
        #expect(try await again.collect(upTo: 64) == small)

        let parts = [Self.pattern(40), Self.pattern(40), Self.pattern(40)]
        let chunked = HTTPResponseBody {
            var remaining = parts
            return { remaining.isEmpty ? nil : remaining.removeFirst() }
        }
        let (none, replay) = try await chunked.peek(upTo: 64)
        #expect(none == nil)
        #expect(try await replay.collect(upTo: 1000) == parts.reduce(Data(), +))
    }

    @Test("collect stops at its limit")
    func collectLimit() async throws {
        await #expect(throws: HTTPResponseBody.TooLarge.self) {
            try await HTTPResponseBody.whole(Self.pattern(100)).collect(upTo: 99)
        }
    }

    @Test("a body is read again from its start each time, and one shorter than it says is an error")
    func requestBody() async throws {
        let data = Self.pattern(200_000)
        let body = HTTPRequestBody.bytes(data)
        for _ in 0..<2 {
            var read = Data()
            for try await chunk in body.chunks {
                #expect(chunk.count <= HTTPRequestBody.chunkSize)
                read.append(chunk)
            }
            #expect(read == data)
        }
        #expect(try await body.collected() == data)
        let short = HTTPRequestBody(length: 10) { offset, count in offset < 5 ? Data(repeating: 1, count: 5) : Data() }
        await #expect(throws: HTTPRequestBody.ShortBody.self) { try await short.collected() }
    }

    @Test("a transport that cannot stream sends the body whole and answers with the whole response")
    func defaultStream() async throws {
        let wholeOnly = WholeOnlyTransport()
        let request = HTTPRequest(method: .post, url: try #require(URL(string: "https://pds.example/xrpc/x.y.z")))
        let response = try await wholeOnly.stream(request, body: .bytes(Self.pattern(70_000)))
        #expect(response.status == 201)
        #expect(try await response.body.collect(upTo: 10) == Data("ok".utf8))
        #expect(wholeOnly.bodies.withLock { $0 } == [Self.pattern(70_000)])
    }
}

/// A transport with only `send`: it keeps each body it is given and answers 201 "ok".
private final class WholeOnlyTransport: HTTPTransport {
    let bodies = Mutex<[Data?]>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        bodies.withLock { $0.append(request.body) }
        return HTTPResponse(status: 201, body: Data("ok".utf8))
    }
}

/// A mark a closure on another task sets, for the test to look at afterwards.
private final class Flag: Sendable {
    private let raised = Atomic(false)

    func raise() { raised.store(true, ordering: .relaxed) }

    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
