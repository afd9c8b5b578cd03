import Foundation

extension Date {
    /// The time of a JWT NumericDate claim (RFC 7519 §2): a finite JSON number of seconds since the epoch; `nil` for
    /// anything else.
    init?(numericDate value: Any?) {
        guard let seconds = (value as? NSNumber)?.doubleValue, seconds.isFinite else { return nil }
        self.init(timeIntervalSince1970: seconds)
    }
}
