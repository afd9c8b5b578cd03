public import Foundation
import Synchronization

/// Real time plus an offset that tests move forward, shared by the sandbox and the client to expire tokens at once.
public final class ShiftableClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// Creates a clock at real time.
    public init() {}

    /// The clock's current time.
    public func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
