import Foundation
import HTTPTransport
import Synchronization

/// A transport that records each request and answers from a script, for executor tests without I/O.
final class ScriptedTransport: HTTPTransport {
    private let state: Mutex<(requests: [HTTPRequest], responses: [HTTPResponse])>

    init(responses: [HTTPResponse]) {
        self.state = Mutex((requests: [], responses: responses))
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try state.withLock { state in
            state.requests.append(request)
            guard !state.responses.isEmpty else { throw ScriptExhausted() }
            return state.responses.removeFirst()
        }
    }

    struct ScriptExhausted: Error {}
}
