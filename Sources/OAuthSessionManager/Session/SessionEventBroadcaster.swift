import Foundation
import Synchronization

/// Fans session events out to every current subscriber.
final class SessionEventBroadcaster: Sendable {
    private let continuations = Mutex<[UUID: AsyncStream<SessionEvent>.Continuation]>([:])

    /// A new stream of the events from now on.
    func subscribe() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SessionEvent.self,
            bufferingPolicy: .bufferingNewest(64)
        )
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    /// Sends an event to every subscriber.
    func publish(_ event: SessionEvent) {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.yield(event)
        }
    }

    deinit {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.finish()
        }
    }
}
