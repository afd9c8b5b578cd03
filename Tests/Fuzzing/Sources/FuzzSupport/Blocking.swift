import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs async code to completion from libFuzzer's thread, which is not one of the concurrency pool's, so blocking
/// it while the pool runs `work` cannot deadlock (as long as `work` needs no main actor).
///
/// It returns only once the task has let go of everything `work` captured: libFuzzer looks for leaks as soon as an
/// input is done, and an object a finishing task still holds, behind a pointer Swift packed with tag bits, would
/// look leaked.
public func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    var job = Job(work)
    Task.detached { [job] in await job.run() }
    job.finished.wait()
    while !isKnownUniquelyReferenced(&job) { sched_yield() }
    guard let result = job.result else { fatalError("the task finished without a result") }
    return result
}

/// The work, run once and released before its result is published.
///
/// It is `@unchecked Sendable` because the task writes `work` and `result` before it signals `finished`, and the
/// waiting thread reads `result` only after that signal.
private final class Job<T: Sendable>: @unchecked Sendable {
    private var work: (@Sendable () async -> T)?
    private(set) var result: T?
    let finished = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable () async -> T) {
        self.work = work
    }

    func run() async {
        do {
            guard let work else { return }
            self.work = nil
            result = await work()
        }
        finished.signal()
    }
}

/// ``runBlocking(_:)`` for throwing work: returns its value or throws its error on the calling thread.
public func runBlockingThrowing<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    try runBlocking { () async -> Result<T, any Error> in
        do {
            return .success(try await work())
        } catch {
            return .failure(error)
        }
    }.get()
}
