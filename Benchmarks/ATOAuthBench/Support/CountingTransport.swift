import DPoPRequestExecutor
import HTTPTransport
import Synchronization

/// Counts the requests that reach the network: each is one round trip.
final class CountingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let counter = Atomic<Int>(0)

    /// Decorates a transport.
    init(_ base: any HTTPTransport) {
        self.base = base
    }

    /// How many requests were sent so far.
    var count: Int { counter.load(ordering: .relaxed) }

    /// Counts, then sends through the base transport.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        counter.add(1, ordering: .relaxed)
        return try await base.send(request)
    }
}
