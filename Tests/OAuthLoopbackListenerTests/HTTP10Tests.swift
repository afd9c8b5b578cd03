import ATOAuthTesting
import Foundation
import OAuthLoopbackListener
import Testing

/// The listener answers an HTTP/1.0 request and closes the connection: it never keeps one open.
@Suite("HTTP/1.0 at the loopback listener")
struct HTTP10Tests {
    @Test("an HTTP/1.0 request without keep-alive is answered and its connection closed")
    func closedAfterAnswer() async throws {
        try await withListener { listener, port in
            listener.expect(state: "right")
            let connection = try RawHTTPConnection(port: port)
            connection.sendRaw("GET /favicon.ico HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            let (answer, closed) = await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 "), "\(answer)")
            #expect(closed, "the listener kept the HTTP/1.0 connection open: \(answer)")
        }
    }
}
