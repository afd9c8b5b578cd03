/// A figure's goal from the product spec: a bound on its ratio, or none.
struct Goal: Sendable {
    /// How the goal reads in the table, such as `≥ 0.85`.
    var text: String
    private let test: @Sendable (Double) -> Bool

    /// Whether a ratio meets the goal.
    func isMet(by ratio: Double) -> Bool { test(ratio) }

    /// The ratio must be at least `bound`.
    static func atLeast(_ bound: Double) -> Goal {
        Goal(text: "≥ \(Format.ratio(bound))") { $0 >= bound }
    }

    /// The ratio must be at most `bound`.
    static func atMost(_ bound: Double, _ label: String? = nil) -> Goal {
        Goal(text: label ?? "≤ \(Format.ratio(bound))") { $0 <= bound }
    }

    /// The value must be exactly `value`.
    static func exactly(_ value: Double) -> Goal {
        Goal(text: "= \(Format.ratio(value))") { $0 == value }
    }
}
