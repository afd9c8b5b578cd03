import ATOAuthTesting
import Foundation
import Testing

@testable import OAuthLoopbackListener

/// Local processes that open connections and never finish a request (RFC 8252 §8.3) cannot keep the browser's
/// redirect out: a connection has ``LoopbackCallbackListener/Limits/requestHeadTimeout`` for its whole request head,
/// and one past the limit takes the slot of the oldest connection still sending its head.
@Suite("The loopback listener outlasts connections that never finish a request", .timeLimit(.minutes(1)))
struct SlowRequestTests {
    @Test("connections trickling their request heads into every slot do not keep the redirect out, and are closed")
    func tricklingConnections() async throws {
        let limits = LoopbackCallbackListener.Limits(requestHeadTimeout: .seconds(1))
        try await withListener(limits) { listener, port in
            listener.expect(state: "right")
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(30), expectedState: "right") }
            let tricklers = try (0..<limits.maximumConnections).map { _ in try RawHTTPConnection(port: port) }
            let trickling = tricklers.map { trickle($0, every: .milliseconds(200)) }
            defer {
                for task in trickling { task.cancel() }
            }
            await listener.slots.wait { $0.admitted >= limits.maximumConnections }
            let browser = try RawHTTPConnection(port: port)
            browser.sendGet("/callback?state=right&code=good", host: "127.0.0.1:\(port)")
            try await expectSignedIn(waiting, listener, browser)
            for (index, trickler) in tricklers.enumerated() {
                #expect(await trickler.closedSilently(), "trickling connection \(index) was not closed")
            }
        }
    }

    @Test("a connection past the limit takes the slot of the oldest one still sending its request head")
    func oldestUnfinishedEvicted() async throws {
        try await withListener(.init(maximumConnections: 1, requestHeadTimeout: .seconds(30))) { listener, port in
            listener.expect(state: "right")
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(30), expectedState: "right") }
            let trickler = try RawHTTPConnection(port: port)
            let trickling = trickle(trickler, every: .milliseconds(100))
            defer { trickling.cancel() }
            await listener.slots.wait { $0.open == 1 }
            let browser = try RawHTTPConnection(port: port)
            browser.sendGet("/callback?state=right&code=good", host: "127.0.0.1:\(port)")
            #expect(await trickler.closedSilently())
            try await expectSignedIn(waiting, listener, browser)
        }
    }

    @Test("connections that sent their whole request keep their slots, and one past the limit is closed at once")
    func completeRequestsKept() async throws {
        try await withListener(.init(maximumConnections: 2)) { listener, port in
            // No state is expected yet, so both callbacks are delivered and wait for the page.
            let held = try await deliveredCallbacks(2, state: "s", to: listener, port: port)
            #expect(listener.slots.occupancy.complete == 2)
            let surplus = try RawHTTPConnection(port: port)
            #expect(await surplus.closedSilently())
            await listener.finish(with: .signedIn(as: "alice.test"))
            for connection in held {
                #expect(await connection.readAll().hasPrefix("HTTP/1.1 200"))
            }
        }
    }

    @Test("callbacks delivered before the state is known are answered once it is, so they cannot keep the browser out")
    func earlyForgeriesFreeTheirSlots() async throws {
        try await withListener(.init(maximumConnections: 2)) { listener, port in
            // A neighbour fills every slot with callbacks while the sign-in is still resolving the account.
            let forged = try await deliveredCallbacks(2, state: "forged", to: listener, port: port)
            listener.expect(state: "right")
            for connection in forged {
                #expect(await connection.readAll().hasPrefix("HTTP/1.1 400"))
            }
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(30), expectedState: "right") }
            let browser = try RawHTTPConnection(port: port)
            browser.sendGet("/callback?state=right&code=good", host: "127.0.0.1:\(port)")
            try await expectSignedIn(waiting, listener, browser)
        }
    }

    @Test("a connection whose request head is not complete by the deadline is closed, however often it sends a line")
    func headDeadline() async throws {
        try await withListener(.init(requestHeadTimeout: .seconds(1))) { listener, port in
            listener.expect(state: "right")
            let waiting = Task { try await listener.waitForCallback(timeout: .seconds(30), expectedState: "right") }
            let clock = ContinuousClock()
            let start = clock.now
            let slow = try RawHTTPConnection(port: port)
            let trickling = trickle(slow, every: .milliseconds(200))
            defer { trickling.cancel() }
            #expect(await slow.closedSilently())
            // Well before the 30-second idle timeout, which its lines keep putting off, and not before the deadline.
            #expect(start.duration(to: clock.now) >= .milliseconds(950))
            let browser = try RawHTTPConnection(port: port)
            browser.sendGet("/callback?state=right&code=good", host: "127.0.0.1:\(port)")
            try await expectSignedIn(waiting, listener, browser)
        }
    }
}

/// Opens `count` connections that each send a callback with `state`, before any state is expected, and returns them
/// once the listener delivered every one.
///
/// It waits for the deliveries, not for the heads: a head is counted complete before the listener decides on it, and
/// a decision made after `finish` is the "finished" refusal (410), not the page.
private func deliveredCallbacks(
    _ count: Int,
    state: String,
    to listener: LoopbackCallbackListener,
    port: Int
) async throws -> [RawHTTPConnection] {
    let connections = try (1...count).map { code in
        let connection = try RawHTTPConnection(port: port)
        connection.sendGet("/callback?state=\(state)&code=\(code)", host: "127.0.0.1:\(port)")
        return connection
    }
    for _ in 1...count { _ = try await listener.waitForCallback(timeout: .seconds(30)) }
    return connections
}

/// Expects the callback `waiting` for to be the browser's, finishes the sign-in and expects the browser's page.
private func expectSignedIn(
    _ waiting: Task<URL, any Error>,
    _ listener: LoopbackCallbackListener,
    _ browser: RawHTTPConnection,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let url = try await waiting.value
    #expect(url.query?.contains("code=good") == true, sourceLocation: sourceLocation)
    await listener.finish(with: .signedIn(as: "alice.test"))
    #expect(await browser.readAll().hasPrefix("HTTP/1.1 200"), sourceLocation: sourceLocation)
}

/// Sends a request line, then a header line every `interval` and never the blank line that ends the head, until
/// the connection is closed or the task is cancelled.
private func trickle(_ connection: RawHTTPConnection, every interval: Duration) -> Task<Void, Never> {
    Task {
        guard connection.sendRaw("GET /callback?state=trickle&code=c HTTP/1.1\r\n") else { return }
        var line = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)  // A slow client's pace, on purpose.
            line += 1
            guard connection.sendRaw("X-Trickle-\(line): 1\r\n") else { return }
        }
    }
}
