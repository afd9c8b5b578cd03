// The redirect back from the authorization server (RFC 6749 §4.1.2, RFC 9207 §2) as the loopback listener receives
// it (RFC 8252 §7.3, §8.3): the request target and `Host` the listener decides on, then the callback parameters
// and the code check the sign-in makes; and a callback URL handed over whole, as an app's browser session does.
//
// Input: the request target on the first line, the `Host` header on the second (none without it).

import Foundation
import FuzzSupport

@testable import OAuthLoopbackListener
@testable import OAuthSessionManager

let port = 49_152
let issuer = "https://auth.example.com"
let expectedState = "M2Y4ZjQ1YjEtZmYxNy00YjZiLWI2MTQtOWY0NDZhMjE"

/// Reads the parameters of a callback and checks its code as the sign-in does; returns the `state` it read.
@discardableResult
func readCallback(_ url: URL) -> String?? {
    do {
        let parameters = try CallbackParameters(callbackURL: url)
        do {
            let code = try parameters.validatedCode(expectedIssuer: issuer)
            invariant(
                !code.isEmpty && parameters.issuer == issuer && parameters.error == nil,
                "only a clean code passes"
            )
        } catch {
            invariantPrintable(error)
        }
        return .some(parameters.state)
    } catch {
        invariantPrintable(error)
        return nil
    }
}

Fuzzer.run { input in
    let lines = input.lines
    let target = lines[0]
    let host = lines.count > 1 ? lines[1] : nil

    let open = CallbackGate(path: "/callback", port: port)
    if case .deliver(let url, _) = open.decide(method: "GET", target: target, host: host) {
        invariant(url.path(percentEncoded: true) == "/callback", "only the callback path is delivered")
        readCallback(url)
    }

    let expecting = CallbackGate(path: "/callback", port: port)
    expecting.expect(state: expectedState)
    switch expecting.decide(method: "GET", target: target, host: host) {
    case .deliver(let url, let state):
        invariant(state == expectedState, "a listener that expects a state delivers only that state")
        if let read = readCallback(url) {
            invariant(read == expectedState, "the sign-in reads the state the listener checked")
        }
    case .refuse(let refusal):
        invariant([400, 404, 410].contains(refusal.status), "a refusal is a client error")
    }

    if let url = URL(string: input.text) {
        readCallback(url)
    }
}
