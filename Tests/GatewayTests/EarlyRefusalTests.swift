import ATOAuthTesting
import Foundation
import HTTPTransport
import Testing

/// A call whose body does not choose its account (anything but small JSON) is checked before the body is read: a
/// large upload bound to fail is answered before it is sent (RFC 9110 §10.1.1), its body never read.
@Suite("A call bound to fail is refused before its body is read")
struct EarlyRefusalTests {
    @Test("an upload waiting for 100 Continue as an account not signed in, or without the permission, is 403 at once")
    func beforeContinue() async throws {
        try await RunningGateway.withSignedIn { _, gateway in
            let connection = try RawHTTPConnection(port: gateway.port)
            connection.sendRaw(
                uploadHead(gateway, length: 8 << 20, extra: "Expect: 100-continue\r\natoauth-account: bob.test\r\n")
            )
            let answer = await connection.readAll()
            #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
            #expect(answer.contains(#""error":"AccountNotSignedIn""#))
            #expect(!answer.contains("100 Continue"))

            // The signed-in account is told to go on.
            let allowed = try RawHTTPConnection(port: gateway.port)
            allowed.sendRaw(uploadHead(gateway, length: 8 << 20, extra: "Expect: 100-continue\r\n"))
            #expect(await allowed.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 100 Continue"))
        }
        try await SandboxWorld.with { world in
            let (accounts, _) = try await narrowedSession(world, scope: "atproto repo:app.bsky.feed.like?action=create")
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let connection = try RawHTTPConnection(port: gateway.port)
                connection.sendRaw(uploadHead(gateway, length: 8 << 20, extra: "Expect: 100-continue\r\n"))
                let answer = await connection.readAll()
                #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
                #expect(answer.contains(#""error":"ScopeMissingError""#))
                #expect(answer.contains("blob:"))
                #expect(!answer.contains("100 Continue"))
            }
        }
    }

    @Test("without Expect, the refusal comes before the body is sent; the body is never read: the connection closes")
    func beforeBody() async throws {
        try await RunningGateway.withSignedIn { _, gateway in
            let connection = try RawHTTPConnection(port: gateway.port)
            let length = 2 << 20
            connection.sendRaw(uploadHead(gateway, length: length, extra: "atoauth-account: bob.test\r\n"))
            let (answer, closed) = await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
            #expect(answer.contains("AccountNotSignedIn"), "\(answer)")
            #expect(answer.lowercased().contains("connection: close"), "\(answer)")
            #expect(closed, "the gateway kept the connection open to read the refused body")
            #expect(try await gateway.send("/xrpc/com.atproto.server.getSession").status == 200)
        }
    }

    /// The head of an `uploadBlob` of `length` bytes with the gateway's token, and `extra` header lines.
    private func uploadHead(_ gateway: GatewayClient, length: Int, extra: String) -> String {
        "POST /xrpc/com.atproto.repo.uploadBlob HTTP/1.1\r\nHost: 127.0.0.1:\(gateway.port)\r\n"
            + "Authorization: Bearer \(gateway.token)\r\nContent-Type: image/png\r\nContent-Length: \(length)\r\n"
            + extra + "\r\n"
    }
}
