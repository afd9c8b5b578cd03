/// The range of a ``SandboxSetting`` that is a number, told from outside by `POST /_sandbox/settings` or an option of
/// `atoauth sandbox`: a value outside it, not finite, or not whole where a whole number is asked for is refused
/// before it reaches a conversion to `Int` or `Duration` that would trap.
public struct SandboxSettingRange: Sendable, Hashable {
    /// The setting's name, as `POST /_sandbox/settings` takes it (or an option's name, such as
    /// `--slow-milliseconds`).
    public var name: String
    /// What the number counts, in the plural: `seconds`, `refreshes`.
    public var unit: String
    /// The smallest and the largest value taken.
    public var range: ClosedRange<Double>
    /// Whether only whole numbers are taken.
    public var wholeNumbers: Bool

    /// Creates a range for a setting.
    public init(name: String, unit: String, range: ClosedRange<Double>, wholeNumbers: Bool) {
        self.name = name
        self.unit = unit
        self.range = range
        self.wholeNumbers = wholeNumbers
    }

    /// The same range under another name and unit, `scale` (a positive factor) of its units to one of this range's:
    /// an option in milliseconds for a setting in seconds.
    public func renamed(_ name: String, unit: String? = nil, scale: Double = 1) -> SandboxSettingRange {
        let bounds = (range.lowerBound * scale, range.upperBound * scale)
        return SandboxSettingRange(
            name: name,
            unit: unit ?? self.unit,
            range: min(bounds.0, bounds.1)...max(bounds.0, bounds.1),
            wholeNumbers: wholeNumbers
        )
    }

    /// What the setting takes, such as `a whole number of seconds from 1 to 86400`.
    public var expectation: String {
        "\(wholeNumbers ? "a whole number" : "a number") of \(unit) from \(Self.text(range.lowerBound)) to "
            + Self.text(range.upperBound)
    }

    /// Why `value` is refused, such as `accessTokenLifetime must be a whole number of seconds from 1 to 86400`, or
    /// `nil` when it is taken.
    public func problem(_ value: Double) -> String? {
        let whole = value.rounded(.towardZero) == value
        guard value.isFinite, range.contains(value), whole || !wholeNumbers else {
            return "\(name) must be \(expectation)"
        }
        return nil
    }

    /// A bound as a person writes it: `86400`, `0.5`.
    private static func text(_ value: Double) -> String {
        if let whole = Int(exactly: value) { return String(whole) }
        return String(value)
    }
}
