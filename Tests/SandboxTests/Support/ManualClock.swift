import Foundation
import Synchronization

/// A clock the test moves by hand; the server and the test client read the same one.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date()) {
        self.current = Mutex(start)
    }

    func now() -> Date {
        current.withLock { $0 }
    }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
