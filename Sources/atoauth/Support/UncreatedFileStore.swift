import Foundation
import Keystore
import Logging
import Synchronization

/// The file store before it exists: empty, and made by the first write.
///
/// Every command gets it while there is no store, so that one that stores nothing (`accounts list`, `whoami`, a
/// sign-in that fails) creates no file. A command that stores something has asked already, on a terminal, how the
/// new store's key is kept (``FirstUseKey``), and its first write makes the store with that key. Once another
/// process has created the store (a sign-in while a gateway runs), it is opened with the key the environment gives
/// and used from then on.
final class UncreatedFileStore: Keystore {
    private let directory: URL
    private let environment: [String: String]
    private let logger: Logger
    private let opened = Mutex<EncryptedFileKeystore?>(nil)

    init(directory: URL, environment: [String: String], logger: Logger) {
        self.directory = directory
        self.environment = environment
        self.logger = logger
    }

    /// Whether `directory` holds a file store: its `keystore.json`, or entries that lost it (which opening refuses).
    static func exists(in directory: URL) -> Bool {
        EncryptedFileKeystore.holdsStore(directory)
    }

    func load(_ name: String) async throws -> Data? {
        try store(creating: false)?.load(name)
    }

    func save(_ value: Data, as name: String) async throws {
        try store(creating: true)?.save(value, as: name)
    }

    func delete(_ name: String) async throws {
        try store(creating: false)?.delete(name)
    }

    func names() async throws -> [String] {
        try store(creating: false)?.names() ?? []
    }

    func revision(of name: String) async throws -> EntryRevision? {
        guard let store = try store(creating: false) else { return .absent }
        return try store.revision(of: name)
    }

    /// Locks the entry in the store once it exists; before, there is nothing another process could change under
    /// `body` but by creating the store, so `body` runs at once.
    func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)?,
        _ body: () async throws -> T
    ) async throws -> T {
        guard let store = try store(creating: false) else { return try await body() }
        return try await store.withLock(name, isolation: isolation, body)
    }

    /// The store once it exists (or, `creating`, made now), else `nil`.
    private func store(creating: Bool) throws -> EncryptedFileKeystore? {
        try opened.withLock { opened in
            if let opened { return opened }
            guard creating || Self.exists(in: directory) else { return nil }
            let store = try StoreEnvironment.open(directory: directory, environment: environment, logger: logger)
            opened = store
            return store
        }
    }
}
