public import Foundation

/// The `Date` header's form, IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, always GMT, with
/// English names whatever the locale, computed from the proleptic Gregorian calendar without a formatter.
public enum HTTPDate {
    /// The day names from Thursday, the weekday of 1 January 1970.
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970: the years IMF-fixdate's four digits
    /// can write.
    private static let representable: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// `date` in IMF-fixdate, to the whole second (rounded down); a date beyond the years 1 to 9999 is written as the
    /// nearest one within them, and one that is not finite as 1 January 1970.
    public static func format(_ date: Date) -> String {
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

    /// The time an IMF-fixdate names, or `nil` for any other text: the obsolete forms (RFC 850, asctime), another
    /// zone than GMT, a day the month does not have, or a time past 23:59:60.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].hasSuffix(","), weekdays.contains(String(parts[0].dropLast())),
            parts[5] == "GMT", let day = number(parts[1], digits: 2),
            let monthIndex = months.firstIndex(of: String(parts[2])), let year = number(parts[3], digits: 4)
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = number(clock[0], digits: 2), let minute = number(clock[1], digits: 2),
            let second = number(clock[2], digits: 2), hour < 24, minute < 60, second <= 60
        else { return nil }
        let month = Int64(monthIndex + 1)
        guard day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// A run of exactly `digits` ASCII digits as a number.
    private static func number(_ text: Substring, digits: Int) -> Int64? {
        guard text.utf8.count == digits, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int64(text)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The day counted from 1970-01-01 of a Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
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
