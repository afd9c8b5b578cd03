import ArgumentParser

/// How long a gateway token lasts, as `--expires` takes it: a whole number with `s`, `m`, `h` or `d`, such as `8s`,
/// `90m`, `1h` or `7d`; at most 366 days.
struct TokenLifetime: ArgumentValue, Hashable {
    /// The length.
    var duration: Duration

    /// The longest lifetime, in seconds: 366 days.
    static let maximumSeconds: Int64 = 366 * 86_400

    init(parsing text: String) throws(InvalidArgument) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        let digits = text.dropLast()
        guard let unit = text.last.flatMap({ units[$0] }), !digits.isEmpty,
            digits.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int64(digits),
            case (let seconds, let overflow) = number.multipliedReportingOverflow(by: unit), !overflow,
            (1...Self.maximumSeconds).contains(seconds)
        else {
            throw InvalidArgument(
                value: text,
                requirement: "takes a whole number with s, m, h or d, such as 8s, 90m, 1h or 7d; at most 366 days"
            )
        }
        duration = .seconds(seconds)
    }
}
