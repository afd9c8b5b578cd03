import Foundation

/// The `Date` header's form, IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, always GMT, with
/// English names whatever the locale, computed from the proleptic Gregorian calendar without a formatter.
enum HTTPDate {
    /// The day names from Thursday, the weekday of 1 January 1970.
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970: the years IMF-fixdate's four digits
    /// can write.
    private static let representable: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// `date` in IMF-fixdate, to the whole second (rounded down); a date beyond the years 1 to 9999 is written as the
    /// nearest one within them, and one that is not finite as 1 January 1970.
    static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isFinite ? min(max(interval, representable.lowerBound), representable.upperBound) : 0
        let seconds = Int64(clamped.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        let time = [secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60].map { padded($0, 2) }
        return "\(weekday), \(padded(day, 2)) \(months[Int(month - 1)]) \(padded(year, 4)) "
            + time.joined(separator: ":") + " GMT"
    }

    /// The Gregorian year, month (1–12) and day (1–31) of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`, with eras of 400 years that begin on 1 March).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// `value` in decimal with leading zeros to `width` digits.
    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
