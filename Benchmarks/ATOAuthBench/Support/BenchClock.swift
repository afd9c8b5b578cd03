import Foundation
import Synchronization

/// Real time plus an offset, shared by the sandbox and the client, moved forward to expire tokens at once.
final class BenchClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// Creates a clock at real time.
    init() {}

    /// The current time of the benchmark world.
    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
