import ATOAuthTesting
import Keystore
import Synchronization
import Testing

@Suite("NamedAsyncLock with a capacity: a semaphore per name")
struct NamedAsyncLockTests {
    /// Counts the callers inside at once and the most there ever were.
    final class Occupancy: Sendable {
        private let state = Mutex<(inside: Int, most: Int, total: Int)>((0, 0, 0))

        func enter() {
            state.withLock {
                $0.inside += 1
                $0.most = max($0.most, $0.inside)
                $0.total += 1
            }
        }
        func leave() { state.withLock { $0.inside -= 1 } }
        var most: Int { state.withLock { $0.most } }
        var total: Int { state.withLock { $0.total } }
    }

    @Test("30 callers of one name run at most `capacity` at a time, and all of them run", arguments: [1, 3])
    func capacity(_ capacity: Int) async throws {
        let lock = NamedAsyncLock(capacity: capacity)
        let occupancy = Occupancy()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await lock.withLock("slots") {
                        occupancy.enter()
                        // Holds its place a moment on purpose, so that callers overlap; no event is awaited.
                        try await Task.sleep(for: .milliseconds(2))
                        occupancy.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(occupancy.total == 30)
        #expect(occupancy.most <= capacity)
        #expect(occupancy.most >= 1)
    }

    @Test("a cancelled waiter leaves the queue; the places stay usable")
    func cancellation() async throws {
        let lock = NamedAsyncLock(capacity: 2)
        try await lock.withLock("slots") {
            try await lock.withLock("slots") {
                let waiter = Task { try await lock.withLock("slots") { "entered" } }
                try await Waiting.until("the third caller to wait") { lock.waiting(for: "slots") == 1 }
                waiter.cancel()
                await #expect(throws: CancellationError.self) { try await waiter.value }
            }
        }
        let both = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<2 { group.addTask { try await lock.withLock("slots") { "free" } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(both == ["free", "free"])
    }
}
