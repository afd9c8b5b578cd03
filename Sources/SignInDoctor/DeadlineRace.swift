/// Runs one step of a diagnosis until it ends or the diagnosis's deadline passes, whichever comes first.
enum DeadlineRace {
    /// The value `work` returns, or `nil` when `deadline` passed first or the caller was cancelled; without a
    /// deadline, `work` runs to its end.
    ///
    /// The step runs in a task of its own, cancelled when the deadline passes and not waited for: a blocking call
    /// inside it (a system DNS lookup) may not see the cancellation at once, and the deadline must still hold. What
    /// such a step still does is only reading (fetches, a lookup), and its answer goes nowhere.
    static func value<T: Sendable>(
        before deadline: ContinuousClock.Instant?,
        _ work: @escaping @Sendable () async -> T
    ) async -> T? {
        guard let deadline else { return await work() }
        let (answers, sink) = AsyncStream.makeStream(of: T?.self, bufferingPolicy: .bufferingOldest(1))
        let worker = Task { sink.yield(await work()) }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            sink.yield(nil)
        }
        defer {
            worker.cancel()
            timer.cancel()
            sink.finish()
        }
        var first = answers.makeAsyncIterator()
        return await first.next() ?? nil
    }
}
