import ArgumentParser
import WireFormat

/// A value a command takes on its command line, parsed once, by its own type, with the reason when it cannot be.
///
/// Declare the option with `transform: T.parse` so that a refusal carries the reason after the parser's own words:
/// `The value '1x' is invalid for '--max-body <bytes>': it takes a number of bytes from 1 to 64G, …`.
protocol ArgumentValue: ExpressibleByArgument, Sendable {
    /// Parses `text`.
    ///
    /// - Throws: ``InvalidArgument`` saying what the value must be.
    init(parsing text: String) throws(InvalidArgument)
}

extension ArgumentValue {
    init?(argument: String) { try? self.init(parsing: argument) }

    /// ``init(parsing:)`` as `@Option(transform:)` takes it.
    static var parse: @Sendable (String) throws -> Self { { try Self(parsing: $0) } }
}

/// Why a command-line value (or an environment variable's) was refused.
struct InvalidArgument: Error, CustomStringConvertible, Equatable {
    /// The value as given.
    var value: String
    /// What the option needs, completing a sentence about it: `needs an http(s) URL with a port in 1–65535`.
    var requirement: String
    /// Who the sentence is about: `it` after the parser's words, or an option or variable named on its own.
    var subject = "it"

    /// The requirement of a number of `unit` within `range`: `must be a number of seconds from 1 to 600`.
    static func numberOf(_ unit: String, within range: ClosedRange<Int>) -> String {
        "must be a number of \(unit) from \(range.lowerBound) to \(range.upperBound)"
    }

    /// The refusal as one sentence (`it needs an http(s) URL with a port in 1–65535.`).
    var description: String { "\(subject) \(requirement)." }

    /// The refusal of a value that came from `source` (an option or a variable), naming it and the value.
    ///
    /// Such as `--plc-directory needs an http(s) URL with a port in 1–65535, not “ftp://x”.`
    func sentence(naming source: String) -> String {
        "\(source) \(requirement), not “\(TerminalText.sanitized(value, limit: 80))”."
    }
}
