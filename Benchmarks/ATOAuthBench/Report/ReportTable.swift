/// Renders the figures as a Markdown table, the form BENCHMARKS.md quotes.
enum ReportTable {
    /// The table, one row per figure, grouped by section in order of first appearance.
    static func markdown(_ figures: [Figure]) -> String {
        var lines = [
            "| Figure | Measured | Ratio | Goal | Verdict |",
            "|---|---|---|---|---|",
        ]
        var section = ""
        for figure in figures {
            if figure.section != section {
                section = figure.section
                lines.append("| **\(section)** | | | | |")
            }
            let ratio = figure.ratio.map { Format.ratio($0, decimals: figure.decimals) } ?? "—"
            let goal = figure.goal?.text ?? "none set"
            lines.append("| \(figure.name) | \(figure.measured) | \(ratio) | \(goal) | \(figure.verdict) |")
        }
        return lines.joined(separator: "\n")
    }
}
