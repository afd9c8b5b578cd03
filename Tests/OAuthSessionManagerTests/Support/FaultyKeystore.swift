import Foundation
import Keystore
import Synchronization

/// A keystore that fails the next saves of entries whose name starts with a prefix, as a full disk would.
final class FaultyKeystore: Keystore {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "No space left on device" }
    }

    private let base: any Keystore
    private let failures = Mutex<(prefix: String, remaining: Int)>(("", 0))

    init(_ base: any Keystore) { self.base = base }

    /// Fails the next `count` saves of entries named `prefix…`.
    func failSaves(of prefix: String, count: Int) {
        failures.withLock { $0 = (prefix, count) }
    }

    func save(_ value: Data, as name: String) async throws {
        let fails = failures.withLock { state -> Bool in
            guard state.remaining > 0, name.hasPrefix(state.prefix) else { return false }
            state.remaining -= 1
            return true
        }
        if fails { throw DiskFull() }
        try await base.save(value, as: name)
    }

    func load(_ name: String) async throws -> Data? { try await base.load(name) }
    func delete(_ name: String) async throws { try await base.delete(name) }
    func names() async throws -> [String] { try await base.names() }
    func revision(of name: String) async throws -> EntryRevision? { try await base.revision(of: name) }

    func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T {
        try await base.withLock(name, isolation: isolation, body)
    }
}
