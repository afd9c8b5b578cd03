import Foundation
import Synchronization
import WireFormat

/// The `Date` field value (RFC 9110 §6.6.1) of the current second, written once a second rather than once an
/// answer.
final class DateHeader: Sendable {
    private let last = Mutex<(second: Int64, text: String)?>(nil)

    /// `date` in IMF-fixdate; the same text for every date in one second.
    func header(for date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e15 else { return HTTPDate.format(date) }
        let second = Int64(interval.rounded(.down))
        if let cached = last.withLock({ $0 }), cached.second == second { return cached.text }
        let text = HTTPDate.format(date)
        last.withLock { $0 = (second, text) }
        return text
    }
}
