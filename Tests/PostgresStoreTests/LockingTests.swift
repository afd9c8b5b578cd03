import Foundation
import Keystore
import PostgresStore
import Testing

@Suite("withLock excludes every store on the database; its writes commit together, or at a checkpoint")
struct LockingTests {
    /// Ends the server session holding an advisory lock in the fixture's database, as a killed process would.
    static func killLockHolder(_ fixture: StoreFixture) async throws {
        try await fixture.sql(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
    }

    @Test("two stores (two processes) with 20 tasks each lose no increment")
    func mutualExclusion() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { first in
                try await fixture.withStore { second in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<40 {
                            let store = index.isMultiple(of: 2) ? first : second
                            group.addTask { try await increment(store) }
                        }
                        try await group.waitForAll()
                    }
                    #expect(try await first.load("counter") == Data("40".utf8))
                }
            }
        }
    }

    @Test("a section's writes are seen by others only when it ends; writes before an error are kept")
    func transaction() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { first in
                try await fixture.withStore { second in
                    try await first.withLock("session/did:plc:aaa") {
                        try await first.save(Data("new".utf8), as: "session/did:plc:aaa")
                        #expect(try await first.load("session/did:plc:aaa") == Data("new".utf8))
                        #expect(try await second.load("session/did:plc:aaa") == nil)
                    }
                    #expect(try await second.load("session/did:plc:aaa") == Data("new".utf8))
                    struct Refused: Error {}
                    await #expect(throws: Refused.self) {
                        try await first.withLock("session/did:plc:aaa") {
                            try await first.delete("session/did:plc:aaa")
                            throw Refused()
                        }
                    }
                    #expect(try await second.load("session/did:plc:aaa") == nil)
                }
            }
        }
    }

    @Test("when the holder's connection dies, its uncommitted writes are undone, a checkpoint's kept, the lock freed")
    func holderDies() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { first in
                try await fixture.withStore { second in
                    let failure = await #expect(throws: PostgresStoreError.self) {
                        try await first.withLock("session/did:plc:aaa") {
                            try await first.save(Data("note".utf8), as: "refreshing/did:plc:aaa")
                            try await first.checkpoint()
                            try await first.save(Data("lost".utf8), as: "session/did:plc:aaa")
                            try await Self.killLockHolder(fixture)
                            try await first.save(Data("after".utf8), as: "dpop-key/did:plc:aaa")
                        }
                    }
                    // The client learns of the ended session at once, or when the next statement goes unanswered.
                    #expect([.connectionLost, .timedOut].contains(failure), "\(failure?.description ?? "")")
                    #expect(try await second.load("refreshing/did:plc:aaa") == Data("note".utf8))
                    #expect(try await second.load("session/did:plc:aaa") == nil)
                    #expect(try await second.load("dpop-key/did:plc:aaa") == nil)
                    // A lock still held would make this throw once the lock timeout passed.
                    try await second.withLock("session/did:plc:aaa") {}
                }
            }
        }
    }

    @Test("a lock held longer than the lock timeout: a clear error naming the lock")
    func lockTimeout() async throws {
        try await StoreFixture.with { fixture in
            var impatient = try fixture.configuration()
            impatient.lockTimeout = .milliseconds(500)
            try await fixture.withStore { holder in
                try await fixture.withStore(impatient) { waiter in
                    try await holder.withLock("session/did:plc:aaa") {
                        let error = await #expect(throws: PostgresStoreError.lockTimeout) {
                            try await waiter.withLock("session/did:plc:aaa") {}
                        }
                        #expect(error?.description.contains("'session/did:plc:aaa'") == true)
                    }
                    try await waiter.withLock("session/did:plc:aaa") {}
                }
            }
        }
    }

    @Test("a section inside another, with another name, shares its connection and transaction")
    func nested() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await store.withLock("accounts/active") {
                    try await store.withLock("session/did:plc:aaa") {
                        try await store.save(Data("s".utf8), as: "session/did:plc:aaa")
                    }
                    #expect(try await store.load("session/did:plc:aaa") == Data("s".utf8))
                }
                try await store.withLock("session/did:plc:aaa") {}
            }
        }
    }
}

/// Adds 1 to the entry `counter` inside `withLock`, with a suspension between the read and the write.
func increment(_ store: some Keystore) async throws {
    try await store.withLock("counter") {
        let current = try await store.load("counter").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
        await Task.yield()
        try await store.save(Data(String(current + 1).utf8), as: "counter")
    }
}
