import Synchronization

/// Serializes async critical sections per name within one process, waking waiters in FIFO order.
///
/// Waiting suspends the task instead of blocking a thread, and a cancelled waiter leaves the queue at once with
/// `CancellationError`. With a capacity above one, up to that many callers hold a name at once: a semaphore per name.
package final class NamedAsyncLock: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// The queue of waiters for every held name; a name is held while it has an entry.
        var queues: [String: [Waiter]] = [:]
        /// How many callers hold each held name.
        var holders: [String: Int] = [:]
        var nextID: UInt64 = 0
        /// Waiters whose cancellation arrived before they joined a queue.
        var cancelled: Set<UInt64> = []
    }

    private enum Admission {
        case granted
        case cancelled
        case queued
    }

    private let state = Mutex(State())
    private let capacity: Int

    /// Creates a lock that lets `capacity` callers hold the same name at once; one by default.
    package init(capacity: Int = 1) {
        self.capacity = max(1, capacity)
    }

    /// How many callers wait in the queue of `name`; tests wait for a waiter to be queued rather than for a while.
    package func waiting(for name: String) -> Int {
        state.withLock { $0.queues[name]?.count ?? 0 }
    }

    /// Runs `body` while holding the lock on `name`.
    package func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        try await acquire(name)
        defer { release(name) }
        return try await body()
    }

    private func acquire(_ name: String) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        defer { _ = state.withLock { $0.cancelled.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admission = state.withLock { state -> Admission in
                    if state.cancelled.contains(id) { return .cancelled }
                    guard let holders = state.holders[name] else {
                        state.queues[name] = []
                        state.holders[name] = 1
                        return .granted
                    }
                    if holders < capacity, state.queues[name]?.isEmpty != false {
                        state.holders[name] = holders + 1
                        return .granted
                    }
                    state.queues[name]?.append(Waiter(id: id, continuation: continuation))
                    return .queued
                }
                switch admission {
                case .granted: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .queued: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.queues[name]?.firstIndex(where: { $0.id == id }) {
                    return state.queues[name]?.remove(at: index)
                }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func release(_ name: String) {
        let next = state.withLock { state -> Waiter? in
            guard var queue = state.queues[name], !queue.isEmpty else {
                let holders = (state.holders[name] ?? 1) - 1
                state.holders[name] = holders > 0 ? holders : nil
                state.queues[name] = holders > 0 ? [] : nil
                return nil
            }
            let waiter = queue.removeFirst()
            state.queues[name] = queue
            return waiter
        }
        next?.continuation.resume()
    }
}
