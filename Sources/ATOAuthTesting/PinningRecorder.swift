package import HTTPTransport
import Synchronization

/// An ``AddressPinningTransport`` that answers through another transport (a ``ScriptedTransport`` by default) and
/// records where each request was to connect, without any I/O of its own.
package final class PinningRecorder: AddressPinningTransport {
    /// Answers every request, pinned or not.
    package let base: any HTTPTransport
    private let recorded = Mutex<[String?]>([])

    /// Answers through `base`.
    package init(_ base: any HTTPTransport = ScriptedTransport()) {
        self.base = base
    }

    /// Where each request was to connect, oldest first: the pinned address, or `nil` for a request sent unpinned,
    /// which the transport would have resolved again.
    package var connections: [String?] { recorded.withLock { $0 } }

    /// The addresses pinned so far, oldest first.
    package var pinned: [String] { connections.compactMap { $0 } }

    /// How many requests were sent unpinned.
    package var unpinned: Int { connections.filter { $0 == nil }.count }

    /// Records an unpinned request and answers it.
    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(nil) }
        return try await base.send(request)
    }

    /// Records the pinned address and answers the request.
    package func send(_ request: HTTPRequest, connectingTo address: String) async throws -> HTTPResponse {
        recorded.withLock { $0.append(address) }
        return try await base.send(request)
    }
}
