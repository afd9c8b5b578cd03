import Foundation
import Keystore

/// A child process for the keystore tests: it writes to a key-file store until killed, increments a counter under
/// `withLock`, or reports how the store key sits in locked memory (a process of its own, so no other test's keys
/// are counted).
///
/// Usage:
/// - `alternate <store-dir> <key-file> <progress-file> <value-bytes>`: saves `value` as a run of `A` bytes, then
///   alternates runs of `B` and `A`, writing the number of completed saves to the progress file after each.
/// - `increment <store-dir> <key-file> <count> [<lock>]`: adds 1 to the entry `counter`, `count` times, inside
///   `withLock("counter")`, or `withLock(<lock>)`: a lock without an entry, whose file each release deletes.
/// - `locked-memory <store-dir> <key-file>`: opens the store, uses it and lets it go, writing the process's locked
///   memory (`VmLck`, in kB) at each step to standard error as `before open after`.
/// - `unlocked-store`: takes away the right to lock memory (`RLIMIT_MEMLOCK` 0, and the root user's privilege), checks
///   that `mlock` now fails, then creates, fills and reopens a store in a new directory; exits 3 when `mlock` still
///   succeeds.
@main
struct StressHelper {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "alternate" where arguments.count == 5:
                try alternate(
                    store: try open(arguments[1], keyFile: arguments[2]),
                    progressFile: arguments[3],
                    byteCount: Int(arguments[4]) ?? 65_536
                )
            case "increment" where arguments.count == 4 || arguments.count == 5:
                try await increment(
                    store: try open(arguments[1], keyFile: arguments[2]),
                    times: Int(arguments[3]) ?? 0,
                    lock: arguments.count == 5 ? arguments[4] : "counter"
                )
            case "locked-memory" where arguments.count == 3:
                try LockedMemoryReport.run(directory: arguments[1], keyFile: arguments[2])
            case "unlocked-store" where arguments.count == 1:
                try LockedMemoryReport.runWithoutLocking()
            default:
                FileHandle.standardError.write(Data("usage: see StressHelper.swift\n".utf8))
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("KeystoreStressHelper: \(error)\n".utf8))
            exit(1)
        }
    }

    static func open(_ directory: String, keyFile: String) throws -> EncryptedFileKeystore {
        try EncryptedFileKeystore(
            directory: URL(fileURLWithPath: directory),
            keySource: .keyFile(URL(fileURLWithPath: keyFile))
        )
    }

    /// Writes alternating values until killed, or for at most two minutes so a failed test leaves no orphan.
    static func alternate(store: EncryptedFileKeystore, progressFile: String, byteCount: Int) throws {
        let values = [
            Data(repeating: UInt8(ascii: "A"), count: byteCount), Data(repeating: UInt8(ascii: "B"), count: byteCount),
        ]
        let deadline = ContinuousClock.now + .seconds(120)
        var count = 0
        while ContinuousClock.now < deadline {
            try store.save(values[count % 2], as: "value")
            count += 1
            try String(count).write(toFile: progressFile, atomically: true, encoding: .utf8)
        }
    }

    static func increment(store: EncryptedFileKeystore, times: Int, lock: String) async throws {
        for _ in 0..<times {
            try await store.withLock(lock) {
                let current = try store.load("counter").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
                try store.save(Data(String(current + 1).utf8), as: "counter")
            }
        }
    }
}
