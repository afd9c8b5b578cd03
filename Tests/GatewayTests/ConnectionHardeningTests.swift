import ATOAuthTesting
import Foundation
import Gateway
import HTTPTransport
import Sandbox
import Testing

/// What a caller without a token can do to the gateway's connections (issue #34, hardening G1): no body of a refused
/// request is read, no head or body received whole lasts past its deadline, and no more connections stay open than
/// the limit.
@Suite("Nobody without a token can hold the gateway's connections")
struct ConnectionHardeningTests {
    @Test("a refused request's body is never read: the answer says Connection: close and the connection closes")
    func refusedBodyUnread() async throws {
        try await RunningGateway.withSignedIn { _, gateway in
            let connection = try RawHTTPConnection(port: gateway.port)
            // No token, and a body announced that never comes: the answer cannot have waited for it.
            connection.sendRaw(
                "POST /xrpc/com.atproto.repo.createRecord HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
            )
            let (answer, closed) = await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
            #expect(answer.lowercased().contains("connection: close"), "\(answer)")
            #expect(closed, "the gateway kept the connection open for the body: \(answer)")
        }
    }

    @Test(
        "a request the HTTP parser refuses is answered 400 and audited, counted and logged as InvalidRequest",
        arguments: [
            "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "X-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n",
        ]
    )
    func unreadableRequest(_ rest: String) async throws {
        let audit = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: audit) }
        try await RunningGateway.withSignedIn(
            configure: { $0.auditLog = audit },
            body: { _, gateway in
                let connection = try RawHTTPConnection(port: gateway.port)
                connection.sendRaw(
                    "POST /xrpc/com.atproto.repo.uploadBlob HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n" + rest
                )
                let (answer, _) = await connection.readUntilClosed()
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
                let line = try await Waiting.value("the audit line of the unreadable request") {
                    let text = (try? String(contentsOf: audit, encoding: .utf8)) ?? ""
                    return text.split(separator: "\n").first { $0.contains(#""status":400"#) }
                }
                #expect(line.contains(#""error":"InvalidRequest""#), "\(line)")
                let metrics = String(decoding: try await gateway.send("/_gateway/metrics").body, as: UTF8.self)
                #expect(metrics.contains(#"atoauth_gateway_refusals_total{reason="InvalidRequest"} 1"#), "\(metrics)")
            }
        )
    }

    @Test("a body in a transfer coding the gateway does not decode is 501 NotImplemented, and nothing is forwarded")
    func undecodedTransferCoding() async throws {
        try await RunningGateway.withSignedIn { world, gateway in
            let connection = try RawHTTPConnection(port: gateway.port)
            world.server.resetCounters()
            connection.sendRaw(
                "POST /xrpc/com.atproto.repo.uploadBlob HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n"
                    + "Authorization: Bearer \(gateway.token)\r\nContent-Type: image/png\r\n"
                    + "Transfer-Encoding: gzip, chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n"
            )
            let (answer, _) = await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 501"), "\(answer)")
            #expect(answer.contains(#""error":"NotImplemented""#), "\(answer)")
            #expect(world.server.counters.blobsStored == 0)
        }
    }

    @Test("a head trickled in past the deadline is cut off before it ends, though each piece came within the idle time")
    func slowHead() async throws {
        try await RunningGateway.withSignedIn(
            configure: { $0.requestDeadline = .seconds(1) },
            body: { _, gateway in
                let connection = try RawHTTPConnection(port: gateway.port)
                let lines = 600
                var sent = 0
                connection.sendRaw("GET /_gateway/health HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n")
                while sent < lines, connection.sendRaw("X-Slow-\(sent): 1\r\n") {
                    sent += 1
                    // A slow client on purpose: a line every 100 ms, far within the 30 s idle timeout.
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(sent < lines, "the gateway took a head that came over \(lines) pieces")
                #expect(await connection.closedSilently(), "the gateway answered a head it never had whole")
                #expect(try await gateway.send("/_gateway/health", authorized: false).status == 200)
            }
        )
    }

    @Test("a body received whole that trickles past the deadline is 408 with Connection: close; nothing is forwarded")
    func slowBody() async throws {
        try await RunningGateway.withSignedIn(
            configure: { $0.requestDeadline = .seconds(1) },
            body: { world, gateway in
                let before = world.server.counters
                let connection = try RawHTTPConnection(port: gateway.port)
                let length = 600
                connection.sendRaw(
                    "POST /xrpc/com.atproto.repo.createRecord HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n"
                        + "Authorization: Bearer \(gateway.token)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(length)\r\n\r\n"
                )
                let answer = Task { await connection.readUntilClosed() }
                var sent = 0
                while sent < length, connection.sendRaw(" ") {
                    sent += 1
                    // A slow client on purpose: a byte every 50 ms, far within the 30 s idle timeout.
                    try await Task.sleep(for: .milliseconds(50))
                }
                let (text, closed) = await answer.value
                #expect(sent < length, "the gateway read a body that came over \(length) pieces")
                #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
                #expect(text.contains(#""error":"RequestTimeout""#), "\(text)")
                #expect(text.lowercased().contains("connection: close"), "\(text)")
                #expect(closed)
                #expect(world.server.counters.xrpcRequestsReceived == before.xrpcRequestsReceived)
            }
        )
    }

    @Test("a connection over the limit is closed at once, unanswered; once others close, a new one is served")
    func connectionLimit() async throws {
        try await RunningGateway.withSignedIn(
            configure: { $0.maximumConnections = 2 },
            body: { _, gateway in
                let health = "GET /_gateway/health HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n\r\n"
                var held = try (0..<2).map { _ in try RawHTTPConnection(port: gateway.port) }
                for connection in held {
                    connection.sendRaw(health)
                    let answer = await connection.read(until: "\r\n\r\n")
                    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
                }
                let over = try RawHTTPConnection(port: gateway.port)
                over.sendRaw(health)
                #expect(await over.closedSilently(), "a third connection was served with a limit of 2")
                held.removeAll()  // closes them
                try await Waiting.until("a new connection to be served once the held ones closed") {
                    let connection = try RawHTTPConnection(port: gateway.port)
                    connection.sendRaw(health)
                    return await connection.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 200")
                }
            }
        )
    }

    @Test("two Host headers are 400, even when the first is the gateway's own address")
    func twoHosts() async throws {
        try await RunningGateway.withSignedIn { _, gateway in
            let connection = try RawHTTPConnection(port: gateway.port)
            connection.sendRaw(
                "GET /_gateway/health HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\nHost: rebound.example\r\n"
                    + "Connection: close\r\n\r\n"
            )
            let answer = await connection.readAll()
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
            #expect(answer.contains(#""error":"InvalidRequest""#), "\(answer)")
        }
    }
}
