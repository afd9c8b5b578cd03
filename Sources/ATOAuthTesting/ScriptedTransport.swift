import Foundation
package import HTTPTransport
import Synchronization

/// A transport that answers from a script and records each request, without any I/O.
///
/// It answers in one of two ways, or both at once:
/// - from a table of URLs (``on(_:_:)``, ``failing(_:)``): each request to a listed URL gets its reply, as often as
///   it is asked, and a URL not listed gets a 404;
/// - from a queue (``init(responses:)``): each request not in the table takes the next response in order, whatever
///   its URL, and a request after the last one throws ``ScriptExhausted``.
package final class ScriptedTransport: HTTPTransport {
    /// What a listed URL answers.
    package enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(FakeNetworkError)
    }

    /// The failure ``failing(_:)`` scripts, as a reset connection would throw.
    package struct FakeNetworkError: Error, CustomStringConvertible {
        package var description: String { "connection reset" }
    }

    /// A request came after the queue of responses ran out.
    package struct ScriptExhausted: Error {}

    private struct State {
        var routes: [String: Reply] = [:]
        /// `nil` when the transport answers from its table alone.
        var queue: [HTTPResponse]?
        var requests: [HTTPRequest] = []
    }

    private let state: Mutex<State>

    /// Answers each URL of `routes` with its response, and any other with a 404.
    package init(_ routes: [String: HTTPResponse] = [:]) {
        state = Mutex(State(routes: routes.mapValues(Reply.response)))
    }

    /// Answers the requests with `responses` in order, and throws ``ScriptExhausted`` after the last one.
    package init(responses: [HTTPResponse]) {
        state = Mutex(State(queue: responses))
    }

    /// Answers requests to `url` with `response` from now on.
    package func on(_ url: String, _ response: HTTPResponse) {
        state.withLock { $0.routes[url] = .response(response) }
    }

    /// Fails requests to `url` with ``FakeNetworkError`` from now on.
    package func failing(_ url: String) {
        state.withLock { $0.routes[url] = .failure(FakeNetworkError()) }
    }

    /// Every request sent so far, in order.
    package var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// How many requests went to `url`.
    package func count(of url: String) -> Int { requests.filter { $0.url.absoluteString == url }.count }

    /// Records the request and answers it from the table, else from the queue, else with a 404.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reply = try state.withLock { state -> Reply? in
            state.requests.append(request)
            if let reply = state.routes[request.url.absoluteString] { return reply }
            guard state.queue != nil else { return nil }
            guard state.queue?.isEmpty == false, let next = state.queue?.removeFirst() else {
                throw ScriptExhausted()
            }
            return .response(next)
        }
        switch reply {
        case .response(let response): return response
        case .failure(let error): throw error
        case nil: return .text("Not Found", status: 404)
        }
    }
}

extension HTTPResponse {
    /// A JSON answer with `object` serialized with sorted keys (an empty body if it is not JSON).
    package static func json(
        _ object: Any,
        status: Int = 200,
        contentType: String = "application/json"
    ) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(status: status, headers: ["Content-Type": contentType], body: body)
    }

    /// A `text/plain` answer.
    package static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain"], body: Data(text.utf8))
    }
}
