import Synchronization

/// The time a whole call may take, fixed when it starts: every step (reading the session, a refresh, the request, a
/// retry) runs before the same instant.
///
/// The transport keeps its own per-exchange limits (its connect and total timeouts); this one bounds
/// what the caller waits for, as AsyncHTTPClient's `execute(_:deadline:logger:)` does, and the caller hears
/// ``CallTimeoutError`` naming the limit it gave.
package struct CallDeadline: Sendable {
    /// The time the call was given.
    package let limit: Duration
    /// When it runs out.
    package let instant: ContinuousClock.Instant

    /// A deadline `limit` from now; `nil` when there is no limit.
    package init?(_ limit: Duration?) {
        guard let limit else { return nil }
        self.limit = limit
        self.instant = .now + limit
    }

    /// Runs `operation` and returns what it returns, unless `deadline` passes first.
    ///
    /// When the deadline passes first, ``CallTimeoutError`` naming `call()` is thrown at once, and the operation is
    /// cancelled and left to wind down (a refresh it waits for goes on and is saved for the next call). Without a
    /// deadline it simply runs `operation`.
    ///
    /// Cancelling the caller cancels the operation, which then throws what it throws when cancelled.
    package static func run<Value: Sendable>(
        within deadline: CallDeadline?,
        call: @autoclosure @escaping @Sendable () -> String,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let deadline else { return try await operation() }
        let outcome = Outcome<Value>()
        let work = Task {
            do { outcome.finish(.success(try await operation())) } catch { outcome.finish(.failure(error)) }
        }
        let timer = Task {
            guard (try? await Task.sleep(until: deadline.instant, clock: .continuous)) != nil else { return }
            outcome.finish(.failure(CallTimeoutError(limit: deadline.limit, call: call())))
        }
        defer {
            work.cancel()
            timer.cancel()
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { outcome.wait($0) }
        } onCancel: {
            work.cancel()
        }
    }
}

/// The first result of a race between an operation and its deadline, handed to whoever waits for it.
private final class Outcome<Value: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Value, any Error>)
        case finished(Result<Value, any Error>)
    }

    private let state = Mutex(State.pending)

    /// Keeps `result` when it is the first, and hands it to the waiter if there is one already.
    func finish(_ result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .pending:
                state = .finished(result)
                return nil
            case .waiting(let continuation):
                state = .finished(result)
                return continuation
            case .finished:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// Resumes `continuation` with the first result, now or when it comes.
    func wait(_ continuation: CheckedContinuation<Value, any Error>) {
        let ready: Result<Value, any Error>? = state.withLock { state in
            if case .finished(let result) = state { return result }
            state = .waiting(continuation)
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }
}
