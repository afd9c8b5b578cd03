import Foundation
import HTTPTransport
import Synchronization

/// A transport that answers from a table of URLs (404 for any other) and records each request; no I/O.
final class ScriptedTransport: HTTPTransport {
    enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(FakeNetworkError)
    }

    struct FakeNetworkError: Error, CustomStringConvertible {
        var description: String { "connection reset" }
    }

    private let state = Mutex<(routes: [String: Reply], requests: [HTTPRequest])>((routes: [:], requests: []))

    init(_ routes: [String: HTTPResponse] = [:]) {
        for (url, response) in routes { on(url, response) }
    }

    func on(_ url: String, _ response: HTTPResponse) {
        state.withLock { $0.routes[url] = .response(response) }
    }

    func failing(_ url: String) {
        state.withLock { $0.routes[url] = .failure(FakeNetworkError()) }
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func count(of url: String) -> Int { requests.filter { $0.url.absoluteString == url }.count }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reply = state.withLock { state in
            state.requests.append(request)
            return state.routes[request.url.absoluteString]
        }
        switch reply {
        case .response(let response): return response
        case .failure(let error): throw error
        case nil:
            return HTTPResponse(status: 404, headers: ["Content-Type": "text/plain"], body: Data("Not Found".utf8))
        }
    }
}

extension HTTPResponse {
    static func json(_ object: Any, status: Int = 200, contentType: String = "application/json") -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(status: status, headers: ["Content-Type": contentType], body: body)
    }

    static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain"], body: Data(text.utf8))
    }
}
