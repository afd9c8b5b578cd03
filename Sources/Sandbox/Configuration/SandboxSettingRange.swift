/// A number the sandbox is told from outside, by `POST /_sandbox/settings` or an option of `atoauth sandbox`, and the
/// range it must lie in: a value outside it, not finite, or not whole where a whole number is asked for is refused
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

    /// How long an access token lives, in whole seconds: 1 second to a day, the longest an `expires_in` is believed
    /// by atoauth's client.
    public static let accessTokenLifetime = SandboxSettingRange(
        name: "accessTokenLifetime",
        unit: "seconds",
        range: 1...86_400,
        wholeNumbers: true
    )

    /// How often each origin rotates its DPoP nonce (RFC 9449 §8), in whole seconds: 1 second to a day.
    public static let nonceRotationPeriod = SandboxSettingRange(
        name: "nonceRotationPeriod",
        unit: "seconds",
        range: 1...86_400,
        wholeNumbers: true
    )

    /// How many refreshes the token endpoint answers with `500 server_error`: 0 (off) to 100.
    public static let refreshServerErrors = SandboxSettingRange(
        name: "refreshServerErrors",
        unit: "refreshes",
        range: 0...100,
        wholeNumbers: true
    )

    /// How long every answer is delayed, in seconds (fractions taken, to the millisecond): 0 (off) to 60.
    public static let slowResponses = SandboxSettingRange(
        name: "slowResponses",
        unit: "seconds",
        range: 0...60,
        wholeNumbers: false
    )

    /// How far the sandbox's clocks run ahead (negative: behind), in whole seconds: a day either way; 0 is off.
    public static let clockSkew = SandboxSettingRange(
        name: "clockSkew",
        unit: "seconds",
        range: -86_400...86_400,
        wholeNumbers: true
    )

    /// How long a confidential client's session lives after sign-in, in whole seconds: 1 second to 5 years of
    /// 365.25 days.
    public static let confidentialSessionLifetime = SandboxSettingRange(
        name: "confidentialSessionLifetime",
        unit: "seconds",
        range: 1...157_788_000,
        wholeNumbers: true
    )

    /// How long each refresh token of a confidential client lives, in whole seconds: 1 second to 5 years of 365.25
    /// days (the session's lifetime caps it).
    public static let confidentialRefreshTokenLifetime = SandboxSettingRange(
        name: "confidentialRefreshTokenLifetime",
        unit: "seconds",
        range: 1...157_788_000,
        wholeNumbers: true
    )

    /// A bound as a person writes it: `86400`, `0.5`.
    private static func text(_ value: Double) -> String {
        if let whole = Int(exactly: value) { return String(whole) }
        return String(value)
    }
}
