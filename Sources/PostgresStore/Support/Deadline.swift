import Synchronization

/// Runs an operation against a time limit, and returns at the limit even when the operation does not stop.
///
/// The operation runs in a task of its own, cancelled on timeout or when the caller is cancelled; the caller is
/// answered by whichever comes first. An operation that ignores cancellation (a PostgresNIO statement written to a
/// connection that just closed is never answered) is left to end on its own instead of holding the caller.
enum Deadline {
    /// Returns what `operation` returns, or throws `timeoutError` once `timeout` has passed.
    static func run<T: Sendable>(
        _ timeout: Duration,
        orThrow timeoutError: any Error,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let answer = Answer<T>()
        let work = Task {
            do {
                answer.give(.success(try await operation()))
            } catch {
                answer.give(.failure(error))
            }
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            answer.give(.failure(timeoutError))
            work.cancel()
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { answer.deliver(to: $0) }
        } onCancel: {
            work.cancel()
            answer.give(.failure(CancellationError()))
        }
    }
}

/// The first result given, delivered once to the one waiter.
private final class Answer<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<T, any Error>)
        case given(Result<T, any Error>)
        case delivered
    }

    private let state = Mutex(State.empty)

    /// Keeps `result` unless a result was given before, and resumes the waiter if there is one.
    func give(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .empty:
                state = .given(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .given, .delivered:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// Resumes `continuation` with the result once there is one.
    func deliver(to continuation: CheckedContinuation<T, any Error>) {
        let result = state.withLock { state -> Result<T, any Error>? in
            guard case .given(let result) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .delivered
            return result
        }
        if let result { continuation.resume(with: result) }
    }
}
