import Foundation
import Keystore
import Synchronization

/// A keystore that runs `hook` once, just before the first lock of the entry `name` is taken: another process's
/// change, made between what a caller read and what it does under the lock.
final class LockHookKeystore: Keystore {
    private let base: any Keystore
    private let name: String
    private let hook: Mutex<(@Sendable () async throws -> Void)?>

    init(_ base: any Keystore, before name: String, hook: @escaping @Sendable () async throws -> Void) {
        self.base = base
        self.name = name
        self.hook = Mutex(hook)
    }

    func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T {
        if name == self.name,
            let hook = hook.withLock({ hook in
                defer { hook = nil }
                return hook
            })
        {
            try await hook()
        }
        return try await base.withLock(name, isolation: isolation, body)
    }

    func load(_ name: String) async throws -> Data? { try await base.load(name) }
    func save(_ value: Data, as name: String) async throws { try await base.save(value, as: name) }
    func delete(_ name: String) async throws { try await base.delete(name) }
    func names() async throws -> [String] { try await base.names() }
    func revision(of name: String) async throws -> EntryRevision? { try await base.revision(of: name) }
}
