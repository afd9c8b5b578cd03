import Foundation
import Testing

@testable import OAuthLoopbackListener

/// The listener's rule for which request is the callback, checked on request targets no HTTP parser in the way
/// would change (the gate is pure; the socket tests are in ``LoopbackListenerTests``).
@Suite("The loopback listener delivers only requests for its callback path")
struct CallbackGateTests {
    let gate = CallbackGate(path: "/callback", port: 49_152)

    @Test(
        "a target whose path is not exactly the callback path is not delivered",
        arguments: ["?/callback?state=s&code=c", "/callbackx?state=s", "/other?/callback", "//callback?state=s", ""]
    )
    func otherPaths(_ target: String) {
        #expect(gate.decide(method: "GET", target: target, host: "127.0.0.1:49152") == .refuse(.notFound))
    }

    @Test(
        "the callback path is delivered with its query, or without one",
        arguments: ["/callback?state=s&code=c", "/callback"]
    )
    func callbackPath(_ target: String) throws {
        let decision = gate.decide(method: "GET", target: target, host: "localhost:49152")
        let url = try #require(URL(string: "http://127.0.0.1:49152\(target)"))
        #expect(decision == .deliver(url, state: target.contains("state=s") ? "s" : nil))
    }
}
