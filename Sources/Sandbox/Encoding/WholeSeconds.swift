import Foundation

/// Whole seconds for the JSON the sandbox writes: a JWT `exp` or `iat` (NumericDate, RFC 7519 §2) and an
/// `expires_in` (RFC 6749 §5.1), rounded down and kept within ±(2^53 − 1), the integers every JSON reader holds
/// exactly (RFC 8259 §6), so no lifetime however long traps the conversion to `Int`.
enum WholeSeconds {
    /// The largest magnitude written: 2^53 − 1.
    static let limit: Double = 9_007_199_254_740_991

    /// `interval` in whole seconds, rounded down and clamped to ±``limit``; `0` for NaN.
    static func of(_ interval: TimeInterval) -> Int {
        guard !interval.isNaN else { return 0 }
        return Int(min(max(interval.rounded(.down), -limit), limit))
    }

    /// The seconds since the Unix epoch of `date`, as a NumericDate.
    static func since1970(_ date: Date) -> Int {
        of(date.timeIntervalSince1970)
    }
}
