import Foundation
import Keystore
import Synchronization

/// A keystore that counts its decrypting loads, by entry name.
final class CountingKeystore: Keystore {
    private let base: any Keystore
    private let loaded = Mutex<[String]>([])

    init(_ base: any Keystore) { self.base = base }

    /// How many loads were made.
    var loads: Int { loaded.withLock { $0.count } }

    /// The names loaded since `start` loads had been made, in order, one per load.
    func names(loadedSince start: Int) -> [String] {
        loaded.withLock { Array($0.dropFirst(start)) }
    }

    func load(_ name: String) async throws -> Data? {
        loaded.withLock { $0.append(name) }
        return try await base.load(name)
    }

    func save(_ value: Data, as name: String) async throws { try await base.save(value, as: name) }
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
