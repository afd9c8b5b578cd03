import ATOAuthTesting
import Foundation
import OAuthLoopbackListener
import Testing

/// A redirect address the user pastes (the browser ran on another machine) meets the checks a redirect to the
/// loopback listener meets, and reaches the same wait.
@Suite("A pasted redirect address goes through the listener's checks", .timeLimit(.minutes(1)))
struct PastedRedirectTests {
    /// A listener expecting the state `right`.
    func withListener(_ body: (LoopbackCallbackListener, Int) async throws -> Void) async throws {
        try await OAuthLoopbackListenerTests.withListener { listener, port in
            listener.expect(state: "right")
            try await body(listener, port)
        }
    }

    @Test(
        "a line that is not this sign-in's redirect is refused and not delivered",
        arguments: [
            ("", PastedRedirect.blank), ("   \n", .blank), ("not an address", .notAnAddress), ("hello", .notAnAddress),
            ("mailto:someone@example.com", .notAnAddress),
            ("https://127.0.0.1:PORT/callback?state=right&code=c", .otherAddress),
            ("http://127.0.0.1:PORT/elsewhere?state=right&code=c", .otherAddress),
            ("http://127.0.0.1:1/callback?state=right&code=c", .otherAddress),
            ("http://127.0.0.1/callback?state=right&code=c", .otherAddress),
            ("http://user@127.0.0.1:PORT/callback?state=right&code=c", .otherAddress),
            ("http://evil.example:PORT/callback?state=right&code=c", .otherAddress),
            ("http://127.0.0.1:PORT/callback?state=wrong&code=c", .otherSignIn),
            ("http://127.0.0.1:PORT/callback?code=c", .otherSignIn),
            ("http://127.0.0.1:PORT/callback?state=right&state=right&code=c", .otherSignIn),
            ("http://127.0.0.1:PORT/callback?state=right&code=" + String(repeating: "c", count: 9_000), .notAnAddress),
        ]
    )
    func refused(_ line: String, _ expected: PastedRedirect) async throws {
        try await withListener { listener, port in
            #expect(listener.submit(pasted: line.replacingOccurrences(of: "PORT", with: "\(port)")) == expected)
            await #expect(throws: (any Error).self) {
                try await listener.waitForCallback(timeout: .milliseconds(200), expectedState: "right")
            }
        }
    }

    @Test(
        "this sign-in's redirect is delivered to the wait, in the forms a user may paste",
        arguments: [
            "http://127.0.0.1:PORT/callback?state=right&code=c&iss=https%3A%2F%2Fas.example",
            "  http://localhost:PORT/callback?state=right&code=c#  ", "127.0.0.1:PORT/callback?code=c&state=right",
            "\u{1B}[200~http://127.0.0.1:PORT/callback?state=right&code=c\u{1B}[201~\r\n",
        ]
    )
    func accepted(_ line: String) async throws {
        try await withListener { listener, port in
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(10), expectedState: "right") }
            #expect(listener.submit(pasted: line.replacingOccurrences(of: "PORT", with: "\(port)")) == .accepted)
            let url = try await waiting.value
            #expect(url.absoluteString.hasPrefix("http://127.0.0.1:\(port)/callback?"))
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(items.contains(URLQueryItem(name: "code", value: "c")))
            #expect(items.contains(URLQueryItem(name: "state", value: "right")))
        }
    }

    @Test("after a refused line the wait goes on; after the loopback redirect won, a paste finds it finished")
    func firstWins() async throws {
        try await withListener { listener, port in
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(10), expectedState: "right") }
            #expect(listener.submit(pasted: "http://127.0.0.1:\(port)/nope?state=right") == .otherAddress)
            let browser = try RawHTTPConnection(port: port)
            browser.sendGet("/callback?state=right&code=from-browser", host: "127.0.0.1:\(port)")
            let url = try await waiting.value
            #expect(url.query?.contains("code=from-browser") == true)
            await listener.finish(with: .signedIn(as: "alice.test"))
            #expect(await browser.readAll().hasPrefix("HTTP/1.1 200"))
            #expect(listener.submit(pasted: "http://127.0.0.1:\(port)/callback?state=right&code=c") == .finished)
        }
    }
}
