import ATOAuthTesting
import Foundation
import PostgresStore
import Synchronization
import Testing

@Suite("A database that goes away and comes back")
struct RestartTests {
    /// What a loop of calls saw: the values read, and the errors' descriptions.
    final class Outcomes: Sendable {
        let reads = Atomic<Int>(0)
        let errors = Mutex<[String]>([])
    }

    @Test("restarted during calls: clear errors while it is down, then the same store recovers without reopening")
    func restartDuringCalls() async throws {
        let server = try await ThrowawayPostgres.start()
        do {
            try await StoreFixture.with(server: server) { fixture in
                var configuration = try fixture.configuration()
                configuration.operationTimeout = .seconds(10)
                configuration.connectTimeout = .seconds(10)
                try await fixture.withStore(configuration) { store in
                    try await store.save(Data("kept".utf8), as: "session/did:plc:aaa")
                    let outcomes = Outcomes()
                    let calls = Task {
                        while !Task.isCancelled {
                            do {
                                #expect(try await store.load("session/did:plc:aaa") == Data("kept".utf8))
                                outcomes.reads.add(1, ordering: .relaxed)
                            } catch is CancellationError {
                                break  // The loop is being stopped.
                            } catch {
                                outcomes.errors.withLock { $0.append("\(error)") }
                            }
                            // A caller's pace on purpose: a read every 20 ms, as a busy service makes them.
                            try? await Task.sleep(for: .milliseconds(20))
                        }
                    }
                    try await Waiting.until("a few reads before the server pauses") {
                        outcomes.reads.load(ordering: .relaxed) >= 5
                    }
                    try await server.pause()
                    let down = await #expect(throws: PostgresStoreError.self) {
                        try await store.load("session/did:plc:aaa")
                    }
                    #expect([.unreachable, .connectionLost, .timedOut].contains(down), "\(down?.description ?? "")")
                    await #expect(throws: PostgresStoreError.unreachable) {
                        try await store.withLock("accounts/active") {}
                    }
                    try await server.resume()
                    try await Self.eventually { try await store.load("session/did:plc:aaa") == Data("kept".utf8) }
                    let before = outcomes.reads.load(ordering: .relaxed)
                    try await Self.eventually { outcomes.reads.load(ordering: .relaxed) > before + 5 }
                    calls.cancel()
                    _ = await calls.value
                    try await store.withLock("accounts/active") {
                        try await store.save(Data("after".utf8), as: "accounts/active")
                    }
                    #expect(try await store.load("accounts/active") == Data("after".utf8))
                    let errors = outcomes.errors.withLock { $0 }
                    #expect(!errors.isEmpty)
                    for error in errors {
                        #expect(error.contains("PostgreSQL"), "\(error)")
                        #expect(error.contains("Retry") || error.contains("running"), "\(error)")
                    }
                }
            }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Waits (two minutes at most: the pool retries with backoff) until `condition` holds; an error is a no.
    static func eventually(_ condition: () async throws -> Bool) async throws {
        try await Waiting.until("the store to answer again", timeout: .seconds(120)) {
            (try? await condition()) == true
        }
    }
}
