import ArgumentParser

/// A number of seconds, fractions allowed (`2.5`), as the options that take a time without a unit are given:
/// `--request-timeout`, `gateway --shutdown-grace`.
struct Seconds: ArgumentValue, Hashable {
    /// The number as given.
    var value: Double

    /// The same length as a `Duration`, to the millisecond.
    var duration: Duration { .milliseconds(Int((value * 1000).rounded())) }

    init(parsing text: String) throws(InvalidArgument) {
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw InvalidArgument(value: text, requirement: "must be a number of seconds")
        }
        self.value = value
    }

    /// `text` as seconds within `range`.
    ///
    /// - Throws: ``InvalidArgument`` about `source`, the option or variable the text came from.
    init(parsing text: String, within range: ClosedRange<Int>, source: String) throws(InvalidArgument) {
        let refusal = InvalidArgument(
            value: text,
            requirement: InvalidArgument.numberOf("seconds", within: range),
            subject: source
        )
        guard let seconds = try? Seconds(parsing: text),
            (Double(range.lowerBound)...Double(range.upperBound)).contains(seconds.value)
        else { throw refusal }
        self = seconds
    }

    /// The parser of `option`, whose values lie within `range`, for `@Option(transform:)`.
    static func parser(_ option: String, within range: ClosedRange<Int>) -> @Sendable (String) throws -> Seconds {
        { text in try Seconds(parsing: text, within: range, source: option) }
    }
}
