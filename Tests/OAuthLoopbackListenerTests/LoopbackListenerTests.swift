import ATOAuthTesting
import Foundation
import OAuthLoopbackListener
import Testing

/// The loopback redirect listener against real sockets (RFC 8252 §7.3, §8.3): forged callbacks and foreign hosts do
/// not end the sign-in, silent connections are closed, and a finished sign-in names no account (connections that
/// never finish a request are in ``SlowRequestTests``).
@Suite("The loopback listener survives other local processes", .timeLimit(.minutes(1)))
struct LoopbackListenerTests {
    @Test("a callback with another state gets an error page, and the right one still completes the sign-in")
    func forgedState() async throws {
        try await withListener { listener, port in
            listener.expect(state: "right")
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(10), expectedState: "right") }
            for forged in ["/callback?state=wrong&code=evil", "/callback?code=evil", "/callback?state=right&state=x"] {
                let connection = try RawHTTPConnection(port: port)
                connection.sendGet(forged, host: "127.0.0.1:\(port)")
                let answer = await connection.readAll()
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(forged): \(answer)")
                #expect(answer.contains("does not belong"))
            }
            let real = try RawHTTPConnection(port: port)
            real.sendGet("/callback?state=right&code=good", host: "localhost:\(port)")
            let url = try await waiting.value
            #expect(url.query?.contains("code=good") == true)
            await listener.finish(with: .signedIn(as: "alice.test"))
            let page = await real.readAll()
            #expect(page.hasPrefix("HTTP/1.1 200"))
            #expect(page.contains("alice.test"))
        }
    }

    @Test(
        "a request whose Host is not this listener is refused without delivering it",
        arguments: ["evil.example", "127.0.0.1", "127.0.0.1:1", "attacker.example:PORT", nil]
    )
    func foreignHost(_ host: String?) async throws {
        try await withListener { listener, port in
            let connection = try RawHTTPConnection(port: port)
            connection.sendGet(
                "/callback?state=s&code=c",
                host: host?.replacingOccurrences(of: "PORT", with: "\(port)")
            )
            let answer = await connection.readAll()
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
            await #expect(throws: (any Error).self) {
                try await listener.waitForCallback(timeout: .milliseconds(200), expectedState: "s")
            }
        }
    }

    @Test("after the sign-in finished, further callbacks get a page without account details")
    func afterCompletion() async throws {
        try await withListener { listener, port in
            let real = try RawHTTPConnection(port: port)
            real.sendGet("/callback?state=s&code=c", host: "[::1]:\(port)")
            _ = try await listener.waitForCallback(timeout: .seconds(10), expectedState: "s")
            // Connected before the finish, so the listener closing after it cannot refuse the connection; the
            // callback itself is sent only once the sign-in has finished.
            let again = try RawHTTPConnection(port: port)
            let finishing = Task { await listener.finish(with: .signedIn(as: "alice.test")) }
            #expect(await real.readAll().contains("alice.test"))
            again.sendGet("/callback?state=s&code=c", host: "127.0.0.1:\(port)")
            let answer = await again.readAll()
            #expect(!answer.contains("alice.test"))
            #expect(answer.isEmpty || answer.contains("already finished"))
            await finishing.value
        }
    }

    @Test("a silent connection is closed after the idle timeout")
    func idleConnection() async throws {
        try await withListener(.init(idleTimeout: .milliseconds(300))) { _, port in
            let connection = try RawHTTPConnection(port: port)
            #expect(await connection.closedSilently())
        }
    }
}
