import Foundation

/// Number formats for the report.
enum Format {
    /// A ratio with two decimals, or as many as asked (round trips per call need four).
    static func ratio(_ value: Double, decimals: Int = 2) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// A count with thousands separators, such as `12,345`.
    static func count(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }

    /// A duration in the unit that suits it: µs, ms or s.
    static func duration(_ seconds: Double) -> String {
        if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.1f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }

    /// A size in MiB.
    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
