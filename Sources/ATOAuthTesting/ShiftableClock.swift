public import Foundation
import Synchronization

/// A clock that tests move forward, shared by the sandbox and the client to expire tokens at once.
///
/// It runs with real time plus an offset, or, made with ``init(frozenAt:)``, stands still between the test's
/// moves, for tests that compare exact times.
public final class ShiftableClock: Sendable {
    private let start: Date?
    private let offset = Mutex<TimeInterval>(0)

    /// Creates a clock at real time.
    public init() {
        start = nil
    }

    /// Creates a clock that reads `start` until it is moved, and only moves when ``advance(by:)`` moves it.
    public init(frozenAt start: Date) {
        self.start = start
    }

    /// The clock's current time.
    public func now() -> Date { (start ?? Date()).addingTimeInterval(offset.withLock { $0 }) }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
