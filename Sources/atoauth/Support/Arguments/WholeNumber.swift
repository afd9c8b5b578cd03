/// Whole numbers within a range, as the options that count things or name a port take them.
enum WholeNumber {
    /// The parser of `option`, for `@Option(transform:)`: an integer within `range`.
    ///
    /// A value outside is refused with `<option> <requirement>.`
    static func parser(
        _ option: String,
        within range: ClosedRange<Int>,
        requirement: String
    ) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), range.contains(value) else {
                throw InvalidArgument(value: text, requirement: requirement, subject: option)
            }
            return value
        }
    }

    /// The parser of `option`, for `@Option(transform:)`: a number of `unit` within `range`.
    static func parser(
        _ option: String,
        within range: ClosedRange<Int>,
        unit: String
    ) -> @Sendable (String) throws -> Int {
        parser(option, within: range, requirement: InvalidArgument.numberOf(unit, within: range))
    }

    /// The parser of a port option: 1–65535.
    static func port(_ option: String) -> @Sendable (String) throws -> Int {
        parser(option, within: 1...65_535, requirement: "must be between 1 and 65535")
    }

    /// The parser of a port option where 0 asks for any free port: 0–65535.
    static func anyPort(_ option: String) -> @Sendable (String) throws -> Int {
        parser(option, within: 0...65_535, requirement: "must be between 0 (any free port) and 65535")
    }
}
