public import Foundation
import Synchronization

/// A keystore that keeps entries in memory, for tests and previews.
///
/// It checks names like the file store does, and ``withLock(_:isolation:_:)`` really serializes callers per
/// name within the process, so code under test behaves as it would with a real store. It is `Sendable`: the
/// entries live behind a `Mutex` and the per-name locks in a `Sendable` lock table.
public final class InMemoryKeystore: Keystore {
    private let entries: Mutex<[String: Data]>
    private let revisions = Mutex<(counter: Int64, byName: [String: Int64])>((0, [:]))
    private let locks = NamedAsyncLock()

    /// Creates a store holding `entries`.
    public init(entries: [String: Data] = [:]) {
        self.entries = Mutex(entries)
    }

    /// Returns the value stored under `name`, or `nil` when there is none.
    public func load(_ name: String) throws -> Data? {
        let name = try EntryName(name).value
        return entries.withLock { $0[name] }
    }

    /// Stores `value` under `name`, replacing any previous value.
    public func save(_ value: Data, as name: String) throws {
        let name = try EntryName(name).value
        entries.withLock { $0[name] = value }
        bumpRevision(of: name)
    }

    /// Removes the value stored under `name`; does nothing when there is none.
    public func delete(_ name: String) throws {
        let name = try EntryName(name).value
        _ = entries.withLock { $0.removeValue(forKey: name) }
        bumpRevision(of: name)
    }

    /// A counter that grows with every save and delete of the entry; ``EntryRevision/absent`` when there is none.
    public func revision(of name: String) throws -> EntryRevision? {
        let name = try EntryName(name).value
        guard entries.withLock({ $0[name] != nil }) else { return .absent }
        return revisions.withLock { state in EntryRevision([state.byName[name] ?? 0]) }
    }

    private func bumpRevision(of name: String) {
        revisions.withLock { state in
            state.counter += 1
            state.byName[name] = state.counter
        }
    }

    /// Returns the names of all stored entries, sorted.
    public func names() throws -> [String] {
        entries.withLock { $0.keys.sorted() }
    }

    /// How many tasks wait for the lock on `name`.
    package func lockWaiters(_ name: String) -> Int {
        locks.waiting(for: name)
    }

    /// Runs `body` while holding an in-process lock on `name`; waiting tasks are suspended, not blocked.
    public func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        let name = try EntryName(name).value
        return try await locks.withLock(name, body)
    }
}
