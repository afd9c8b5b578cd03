package import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 for tests: it answers through a handler, records every request and counts
/// the connections it accepts (to prove keep-alive reuse).
///
/// Start it with ``withServer(handler:_:)``, which always shuts it down, or with ``start(handler:)`` and
/// ``shutdown()``. Connections are kept alive as long as the client asks for it.
package final class LoopbackHTTPServer: Sendable {
    /// Answers one request; called once per request, possibly concurrently for different connections.
    package typealias Handler = @Sendable (RecordedRequest) async -> ScriptedResponse

    private struct State {
        var requests: [RecordedRequest] = []
        var connectionCount = 0
        var answersFinished = 0
    }

    /// The port the server listens on, chosen by the system.
    package let port: Int
    private let listener: any Channel
    private let state: Mutex<State>
    private let serving: Mutex<Task<Void, Never>?>

    private init(port: Int, listener: any Channel) {
        self.port = port
        self.listener = listener
        self.state = Mutex(State())
        self.serving = Mutex(nil)
    }

    /// `http://127.0.0.1:<port>`.
    package var baseURL: URL {
        // A loopback address and a port always form a URL.
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The URL of `target` (a path with an optional query, such as `/a?b=c`) on this server.
    package func url(_ target: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(target)") ?? baseURL
    }

    /// Every request received so far, in order of arrival.
    package var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// How many TCP connections the server has accepted so far.
    package var connectionCount: Int {
        state.withLock { $0.connectionCount }
    }

    /// How many answers the server has written to their end: a client that gave up on a slow answer did so before
    /// it was finished, which a test checks by this count rather than by the time it took.
    package var answersFinished: Int {
        state.withLock { $0.answersFinished }
    }

    /// A handler that gives every request the same answer.
    package static func always(_ response: ScriptedResponse) -> Handler {
        { _ in response }
    }

    /// Starts a server, runs `body` with it and shuts it down on every path.
    package static func withServer<Value>(
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping Handler,
        _ body: (LoopbackHTTPServer) async throws -> Value
    ) async throws -> Value {
        let server = try await start(handler: handler)
        let result: Value
        do {
            result = try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        return result
    }

    /// Starts a server on 127.0.0.1 with a port chosen by the system; call ``shutdown()`` when done.
    package static func start(handler: @escaping Handler) async throws -> LoopbackHTTPServer {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel
                    )
                }
            }
        let server = LoopbackHTTPServer(port: listener.channel.localAddress?.port ?? 0, listener: listener.channel)
        let task = Task {
            await withDiscardingTaskGroup { group in
                // Runs until the listener is closed; every accepted connection is served (an accepted connection
                // that is never served would trap when dropped), then the connections are cancelled.
                try? await listener.executeThenClose { connections in
                    for try await connection in connections {
                        server.state.withLock { $0.connectionCount += 1 }
                        group.addTask { try? await server.serve(connection, handler: handler) }
                    }
                }
                group.cancelAll()
            }
        }
        server.serving.withLock { $0 = task }
        return server
    }

    /// Stops accepting, closes every connection and waits until all is closed.
    package func shutdown() async {
        try? await listener.close()
        await serving.withLock { $0 }?.value
    }

    private func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
        handler: Handler
    ) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body.clear()
                case .body(var bytes):
                    body.writeBuffer(&bytes)
                case .end:
                    guard let requestHead = head else { continue }
                    let request = RecordedRequest(
                        method: requestHead.method.rawValue,
                        target: requestHead.uri,
                        headers: requestHead.headers.map { ($0.name, $0.value) },
                        body: Data(body.readableBytesView)
                    )
                    state.withLock { $0.requests.append(request) }
                    let response = await handler(request)
                    // Leaving the loop closes the connection.
                    if response.hangsUp { return }
                    try await write(response, for: requestHead, to: outbound)
                    guard requestHead.isKeepAlive else { return }
                }
            }
        }
    }

    private func write(
        _ response: ScriptedResponse,
        for request: HTTPRequestHead,
        to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        // A scripted slow server: the delay and the trickle are what the test asked for, not waits for an event.
        if let delay = response.delay { try await Task.sleep(for: delay) }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        if response.trickle == nil && !headers.contains(name: "Content-Length") {
            headers.add(name: "Content-Length", value: String(response.body.count))
        }
        if !request.isKeepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        try await outbound.write(.head(HTTPResponseHead(version: request.version, status: status, headers: headers)))
        if request.method != .HEAD {
            if let trickle = response.trickle {
                let bytes = [UInt8](response.body)
                let size = max(1, trickle.chunkSize)
                for start in stride(from: 0, to: bytes.count, by: size) {
                    try await Task.sleep(for: trickle.interval)  // The scripted pace between two pieces.
                    let chunk = bytes[start..<min(start + size, bytes.count)]
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: chunk))))
                }
            } else if !response.body.isEmpty {
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
            }
        }
        try await outbound.write(.end(nil))
        state.withLock { $0.answersFinished += 1 }
    }
}
