#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clocks the benchmark reads: CPU time where the spec asks for CPU time, monotonic wall time elsewhere.
enum Clocks {
    /// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPU() -> Duration { read(CLOCK_THREAD_CPUTIME_ID) }

    /// The CPU time every thread of this process has used (`CLOCK_PROCESS_CPUTIME_ID`).
    static func processCPU() -> Duration { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// Monotonic wall time (`CLOCK_MONOTONIC`).
    static func wall() -> Duration { read(CLOCK_MONOTONIC) }

    /// Runs `body` and returns how much of `clock` it took.
    static func measure(_ clock: () -> Duration, _ body: () throws -> Void) rethrows -> Duration {
        let start = clock()
        try body()
        return clock() - start
    }

    /// Runs the asynchronous `body` and returns how much of `clock` it took.
    static func measure(
        _ clock: () -> Duration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Void
    ) async rethrows -> Duration {
        let start = clock()
        try await body()
        return clock() - start
    }

    private static func read(_ clock: clockid_t) -> Duration {
        var time = timespec()
        clock_gettime(clock, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }

    /// The duration in microseconds, as a floating-point number.
    var microseconds: Double { seconds * 1e6 }

    /// The duration in milliseconds, as a floating-point number.
    var milliseconds: Double { seconds * 1e3 }
}
