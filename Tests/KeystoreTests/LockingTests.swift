import ATOAuthTesting
import Foundation
import Keystore
import Testing

@Suite("Locking")
struct LockingTests {
    @Test("8 processes doing 50 locked increments each lose no update")
    func processContention() async throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()

        let helpers = try (0..<8).map { _ in
            try StressHelperProcess(["increment", fixture.directory.path, fixture.keyFile.path, "50"])
        }
        for helper in helpers {
            let exit = await helper.waitForExit()
            #expect(exit.reason == .exit && exit.status == 0, "helper failed: \(exit.errors)")
        }

        let counter = try #require(try fixture.keyFileStore().load("counter"))
        #expect(String(decoding: counter, as: UTF8.self) == "400")
    }

    @Test("8 processes sharing a lock whose file each release deletes still exclude each other, and no file is left")
    func processContentionOnRemovedLockFiles() async throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()
        let helpers = try (0..<8).map { _ in
            try StressHelperProcess([
                "increment", fixture.directory.path, fixture.keyFile.path, "50", "pending/shared-lock",
            ])
        }
        for helper in helpers {
            let exit = await helper.waitForExit()
            #expect(exit.reason == .exit && exit.status == 0, "helper failed: \(exit.errors)")
        }
        let counter = try #require(try fixture.keyFileStore().load("counter"))
        #expect(String(decoding: counter, as: UTF8.self) == "400")
        let locks = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.appending(path: "locks").path)
        #expect(!locks.contains { $0.hasPrefix("pending") }, "\(locks)")
    }

    @Test("a lock whose entry is gone leaves no file; one whose entry exists keeps it; old leftovers are swept")
    func lockFilesOfGoneEntries() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        let locks = fixture.directory.appending(path: "locks")
        for attempt in 0..<15 {
            try await store.withLock("pending/state-\(attempt)") {
                try store.save(Data("pending".utf8), as: "pending/state-\(attempt)")
                try store.delete("pending/state-\(attempt)")
            }
        }
        try await store.withLock("session/did:plc:kept") { try store.save(Data("s".utf8), as: "session/did:plc:kept") }
        var files = try FileManager.default.contentsOfDirectory(atPath: locks.path)
        #expect(files.count == 1 && files[0].hasPrefix("session"), "\(files)")
        // Lock files left by an older atoauth for entries that are gone are removed when the store is opened.
        for name in ["pending%2Fold-1.lock", "pending%2Fold-2.lock"] {
            #expect(FileManager.default.createFile(atPath: locks.appending(path: name).path, contents: nil))
        }
        _ = try fixture.keyFileStore()
        files = try FileManager.default.contentsOfDirectory(atPath: locks.path)
        #expect(files.count == 1 && files[0].hasPrefix("session"), "\(files)")
    }

    @Test("concurrent tasks doing locked increments on one store lose no update")
    func taskContention() async throws {
        let fixture = try StoreFixture()
        // 128 locked increments queue behind one another; on a machine kept busy by the parallel suite the last
        // waits far longer than a person would, so the lock timeout is generous here.
        let store = try fixture.keyFileStore(lockTimeout: .seconds(600))

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<8 {
                        try await increment(store)
                    }
                }
            }
            try await group.waitForAll()
        }

        #expect(try store.load("counter") == Data("128".utf8))
    }

    @Test("a lock held elsewhere times out with lockTimeout")
    func timeout() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore(lockTimeout: .milliseconds(100))

        try await store.withLock("accounts") {
            let started = ContinuousClock.now
            let error = await #expect(throws: KeystoreError.lockTimeout) {
                try await store.withLock("accounts") {}
            }
            #expect(ContinuousClock.now - started >= .milliseconds(100))
            #expect(error?.description.contains("accounts") == true)
        }
    }

    @Test("waiting for a lock ends with CancellationError when the task is cancelled")
    func cancellation() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()

        try await store.withLock("accounts") {
            // The file lock is waited for by polling, which leaves no trace to wait for: the test waits until the
            // waiter runs, and a cancellation before its first try or between two tries must end the same way.
            let (started, start) = AsyncStream.makeStream(of: Void.self)
            let waiter = Task {
                start.yield()
                return try await store.withLock("accounts") { "entered" }
            }
            for await _ in started { break }
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
        }
        #expect(try await store.withLock("accounts") { "free" } == "free")
    }

    @Test("opening a store while another process opens it ends with CancellationError when the task is cancelled")
    func openingCancelled() async throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()
        // Another process opening the store holds keystore.lock (flock locks of two descriptors exclude each other).
        let holder = open(fixture.file("keystore.lock").path, O_RDWR)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        defer { close(holder) }
        // A cancellation before the first try or between two tries ends the same way; without it, lockTimeout.
        let opening = Task { try fixture.keyFileStore(lockTimeout: .seconds(30)) }
        opening.cancel()
        await #expect(throws: CancellationError.self) { try await opening.value }
    }

    @Test("the lock is released when the body throws")
    func releaseOnThrow() async throws {
        struct Failure: Error {}
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore(lockTimeout: .milliseconds(200))

        await #expect(throws: Failure.self) { try await store.withLock("accounts") { throw Failure() } }

        #expect(try await store.withLock("accounts") { 42 } == 42)
    }

    @Test("different lock names do not exclude each other")
    func independentNames() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore(lockTimeout: .milliseconds(200))

        let inner = try await store.withLock("session/did:plc:aaa") {
            try await store.withLock("session/did:plc:bbb") { "both held" }
        }

        #expect(inner == "both held")
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
