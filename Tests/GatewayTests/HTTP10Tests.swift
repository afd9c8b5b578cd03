import ATOAuthTesting
import Foundation
import Testing

/// An HTTP/1.0 connection is closed after its answer unless it asked to be kept (`Connection: keep-alive`), RFC 9112
/// §9.3.
@Suite("HTTP/1.0 connections")
struct HTTP10Tests {
    @Test("an HTTP/1.0 request without keep-alive is answered and its connection closed")
    func closedAfterAnswer() async throws {
        try await RunningGateway.withSignedIn { _, gateway in
            let connection = try RawHTTPConnection(port: gateway.port)
            connection.sendRaw("GET /_gateway/health HTTP/1.0\r\nHost: 127.0.0.1:\(gateway.port)\r\n\r\n")
            let (answer, closed) = await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            #expect(answer.lowercased().contains("connection: close"), "\(answer)")
            #expect(closed, "the gateway kept the HTTP/1.0 connection open: \(answer)")
        }
    }

    @Test("an HTTP/1.0 request with Connection: keep-alive keeps its connection for the next request")
    func keptWhenAsked() async throws {
        try await RunningGateway.withSignedIn { _, gateway in
            let connection = try RawHTTPConnection(port: gateway.port)
            let head = "GET /_gateway/health HTTP/1.0\r\nHost: 127.0.0.1:\(gateway.port)\r\n"
            connection.sendRaw(head + "Connection: keep-alive\r\n\r\n")
            let first = await connection.read(until: "\r\n\r\n")
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first)")
            #expect(first.lowercased().contains("connection: keep-alive"), "\(first)")
            #expect(connection.sendRaw(head + "\r\n"))
            let (rest, closed) = await connection.readUntilClosed()
            #expect(rest.contains("HTTP/1.1 200"), "the second request on the kept connection is answered: \(rest)")
            #expect(closed)
        }
    }
}
