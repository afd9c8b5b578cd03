import Synchronization

/// The work an answer in flight waits for (the call to the PDS, with its refresh), which a shutdown whose grace ran
/// out cuts short: each is cancelled, so that its request is answered `503 ShuttingDown` on a connection still open,
/// as docs/cli.md promises, and the server, which waits for its requests, can stop.
final class UpstreamCalls: Sendable {
    private struct State {
        var next = 0
        var running: [Int: @Sendable () -> Void] = [:]
        var isCutShort = false
    }

    private let state = Mutex(State())

    /// Runs `call` in a task of its own, cancelled by ``cutShort()`` and by the caller's own cancellation.
    func run<T: Sendable>(_ call: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await call() }
        let id: Int? = state.withLock { state in
            guard !state.isCutShort else { return nil }
            defer { state.next += 1 }
            state.running[state.next] = { task.cancel() }
            return state.next
        }
        if id == nil { task.cancel() }
        defer { if let id { state.withLock { _ = $0.running.removeValue(forKey: id) } } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Cancels every call running, and every one started from now on.
    func cutShort() {
        let cancels = state.withLock { state in
            state.isCutShort = true
            return Array(state.running.values)
        }
        for cancel in cancels { cancel() }
    }
}
