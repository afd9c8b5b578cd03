/// Summaries of repeated measurements; medians, because a loaded machine adds outliers in one direction only.
enum Samples {
    /// The median of `values`; `0` when there are none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of durations, in seconds.
    static func median(_ values: [Duration]) -> Double {
        median(values.map(\.seconds))
    }
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
enum Sink {
    /// Takes a value the optimizer cannot see being ignored.
    @inline(never) @_optimize(none)
    static func consume(_ value: Int) {}
}
