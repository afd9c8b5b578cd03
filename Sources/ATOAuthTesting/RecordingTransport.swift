public import HTTPTransport
import Synchronization

/// Sends through another transport and records every request, retries included: how many round trips a call
/// made, and what went on the wire.
///
/// ```swift
/// let recording = RecordingTransport(world.transport)
/// let accounts = world.accounts(transport: recording)
/// …
/// #expect(recording.requests.last?.headers["atproto-proxy"] == nil)
/// ```
public final class RecordingTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let recorded = Mutex<[HTTPRequest]>([])

    /// Decorates `base`.
    public init(_ base: any HTTPTransport) {
        self.base = base
    }

    /// The requests sent so far, oldest first.
    public var requests: [HTTPRequest] { recorded.withLock { $0 } }

    /// How many requests were sent so far.
    public var count: Int { recorded.withLock { $0.count } }

    /// Records, then sends through the base transport.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return try await base.send(request)
    }
}
