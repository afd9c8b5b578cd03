/// One row of the report: what was measured, the ratio against a baseline of the same run, and its goal.
struct Figure: Sendable {
    /// The section the row belongs to, such as `DPoP proof`.
    var section: String
    /// What the row measures.
    var name: String
    /// The raw measurements, with units.
    var measured: String
    /// The ratio to the baseline measured in the same run, when there is one.
    var ratio: Double?
    /// The goal from the spec, when it sets one.
    var goal: Goal?
    /// How many decimals the ratio is shown with.
    var decimals = 2

    /// `meets`, `misses`, or `—` when there is no goal.
    var verdict: String {
        guard let goal, let ratio else { return "—" }
        return goal.isMet(by: ratio) ? "meets" : "misses"
    }
}
