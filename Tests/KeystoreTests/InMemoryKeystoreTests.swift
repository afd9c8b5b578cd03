import ATOAuthTesting
import Foundation
import Keystore
import Testing

@Suite("In-memory keystore")
struct InMemoryKeystoreTests {
    @Test("saves, loads, lists, overwrites and deletes entries")
    func roundTrip() throws {
        let store = InMemoryKeystore(entries: ["accounts": Data("a".utf8)])
        try store.save(Data("s".utf8), as: "session/did:plc:abc234")
        try store.save(Data("b".utf8), as: "accounts")

        #expect(try store.load("accounts") == Data("b".utf8))
        #expect(try store.names() == ["accounts", "session/did:plc:abc234"])
        try store.delete("accounts")
        try store.delete("accounts")
        #expect(try store.load("accounts") == nil)
        #expect(try store.names() == ["session/did:plc:abc234"])
    }

    @Test("checks names like the file store")
    func invalidNames() throws {
        let store = InMemoryKeystore()

        #expect(throws: KeystoreError.invalidName) { try store.save(Data(), as: "") }
        #expect(throws: KeystoreError.invalidName) { try store.load(String(repeating: "x", count: 201)) }
    }

    @Test("serializes locked increments from many tasks")
    func serializes() async throws {
        let store = InMemoryKeystore()

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    for _ in 0..<20 {
                        try await increment(store)
                    }
                }
            }
            try await group.waitForAll()
        }

        #expect(try store.load("counter") == Data("1000".utf8))
    }

    @Test("works through an existential with the caller's isolation")
    @MainActor
    func existential() async throws {
        let store: any Keystore = InMemoryKeystore()
        var entered = 0

        let result = try await store.withLock("accounts") {
            entered += 1
            return entered
        }

        #expect(result == 1)
    }

    @Test("a cancelled waiter leaves the queue and the lock stays usable")
    func cancellation() async throws {
        let store = InMemoryKeystore()

        try await store.withLock("accounts") {
            let waiter = Task { try await store.withLock("accounts") { "entered" } }
            try await Waiting.until("the second caller to wait") { store.lockWaiters("accounts") == 1 }
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
        }
        #expect(try await store.withLock("accounts") { "free" } == "free")
    }
}
