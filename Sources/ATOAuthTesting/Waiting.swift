public import Failures

/// The one way a test waits for something to happen: it names the event, looks for it until it is there, and gives
/// up at a deadline, never after a fixed pause that a loaded machine can outrun.
///
/// A look costs little (a counter, a file, a process's state, a line on a pipe), so the check runs every few
/// milliseconds; the deadline is generous, since it only matters when the event never comes.
public enum Waiting {
    /// How long a wait lasts by default before it fails: long enough for a loaded two-core machine.
    public static let defaultTimeout: Duration = .seconds(60)

    /// The time between two looks at a condition: not a wait for the event, which is looked for again after it.
    static let interval: Duration = .milliseconds(20)

    /// Waits until `condition` holds; throws ``WaitTimedOut`` naming `event` when `timeout` passes first.
    public static func until(
        _ event: @autoclosure () -> String,
        timeout: Duration = defaultTimeout,
        _ condition: () async throws -> Bool
    ) async throws {
        _ = try await value(event(), timeout: timeout) { try await condition() ? () : nil }
    }

    /// Waits until `produce` returns a value, and returns it; throws ``WaitTimedOut`` naming `event` when `timeout`
    /// passes first.
    public static func value<Value>(
        _ event: @autoclosure () -> String,
        timeout: Duration = defaultTimeout,
        _ produce: () async throws -> Value?
    ) async throws -> Value {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try await produce() { return value }
            guard ContinuousClock.now < deadline else { throw WaitTimedOut(event: event(), timeout: timeout) }
            // Not a wait for the event: the event is looked for again after this interval.
            try await Task.sleep(for: interval)
        }
    }

    /// Waits until `condition` holds or `timeout` passes, whichever comes first, and says whether it held: for a
    /// clean-up that does what it can (stopping a child that may already have stopped) and never throws.
    @discardableResult
    public static func atMost(_ timeout: Duration, until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            // Not a wait for the event: the condition is looked at again after this interval.
            try? await Task.sleep(for: interval)
        }
        return true
    }
}

/// A wait that reached its deadline before the event it waited for.
public struct WaitTimedOut: CategorizedError, Hashable {
    /// What the test waited for.
    public var event: String
    /// How long it waited.
    public var timeout: Duration

    /// `waited 60 seconds for: the gateway's address`.
    public var description: String { "waited \(timeout) for: \(event)" }

    /// The event did not come: what the test waited for failed.
    public var category: FailureCategory { .failed }

    /// This machine, where the test and what it waits for run.
    public var origin: FailureOrigin { .machine }
}
