import Foundation
import Keystore
import Synchronization

/// A keystore that passes everything to another and records, per lock name, how many critical sections were
/// requested and the most that were requested at once.
final class LockWatch: Keystore {
    private let base: any Keystore
    private let state = Mutex<(running: [String: Int], most: [String: Int], total: [String: Int])>(([:], [:], [:]))

    init(_ base: any Keystore) { self.base = base }

    /// The most critical sections of `name` this process asked for at the same time.
    func mostAtOnce(_ name: String) -> Int { state.withLock { $0.most[name] ?? 0 } }

    /// How many critical sections of `name` this process asked for.
    func total(_ name: String) -> Int { state.withLock { $0.total[name] ?? 0 } }

    func load(_ name: String) async throws -> Data? { try await base.load(name) }
    func save(_ value: Data, as name: String) async throws { try await base.save(value, as: name) }
    func delete(_ name: String) async throws { try await base.delete(name) }
    func names() async throws -> [String] { try await base.names() }
    func revision(of name: String) async throws -> EntryRevision? { try await base.revision(of: name) }
    func checkpoint() async throws { try await base.checkpoint() }

    func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T {
        state.withLock { state in
            state.running[name, default: 0] += 1
            state.total[name, default: 0] += 1
            state.most[name] = max(state.most[name] ?? 0, state.running[name] ?? 0)
        }
        defer { state.withLock { $0.running[name, default: 1] -= 1 } }
        return try await base.withLock(name, isolation: isolation, body)
    }
}
