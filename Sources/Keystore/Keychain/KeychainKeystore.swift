#if canImport(Security)
public import Foundation
import Security

/// A keystore that keeps entries as generic passwords in the Keychain; the default on Apple platforms.
///
/// Each entry is an item of class `kSecClassGenericPassword` whose service is ``service`` and whose account is the
/// entry name, stored as `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`. It does not opt into the macOS data
/// protection keychain, which an unsigned command-line tool cannot use.
/// ``withLock(_:isolation:_:)`` takes an in-process lock per name, then a `flock` on a lock file in the caches
/// directory so that other processes of the same app are excluded too. It is `Sendable` because its stored
/// properties are immutable and `Sendable`.
public final class KeychainKeystore: Keystore {
    /// The Keychain service under which entries are stored.
    public let service: String

    private let lockDirectory: String
    private let lockTimeout: Duration
    private let locks = NamedAsyncLock()

    /// Creates a store for the Keychain items of `service`.
    ///
    /// - Parameters:
    ///   - service: The `kSecAttrService` of the items.
    ///   - lockDirectory: Where lock files go; defaults to `<caches>/<service>/locks`.
    ///   - lockTimeout: How long ``withLock(_:isolation:_:)`` waits for another process.
    /// - Throws: An error when the caches directory cannot be found or the lock directory cannot be created.
    public init(
        service: String = "atoauth",
        lockDirectory: URL? = nil,
        lockTimeout: Duration = EncryptedFileKeystore.defaultLockTimeout
    ) throws {
        let directory = try lockDirectory ?? Self.defaultLockDirectory(service: service)
        try SecureDirectory.createMissing(directory.path)
        self.service = service
        self.lockDirectory = directory.path
        self.lockTimeout = lockTimeout
    }

    /// Returns the value stored under `name`, or `nil` when there is none.
    public func load(_ name: String) throws -> Data? {
        var query = baseQuery(try EntryName(name).value)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw KeystoreError.keychainFailure("read the entry '\(name)'", status: status)
        }
        return data
    }

    /// Stores `value` under `name`, replacing any previous value.
    public func save(_ value: Data, as name: String) throws {
        let query = baseQuery(try EntryName(name).value)
        let update = [kSecValueData as String: value] as CFDictionary
        var status = SecItemUpdate(query as CFDictionary, update)
        if status == errSecItemNotFound {
            var item = query
            item[kSecValueData as String] = value
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else {
            throw KeystoreError.keychainFailure("save the entry '\(name)'", status: status)
        }
    }

    /// Removes the value stored under `name`; does nothing when there is none.
    public func delete(_ name: String) throws {
        let status = SecItemDelete(baseQuery(try EntryName(name).value) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw KeystoreError.keychainFailure("delete the entry '\(name)'", status: status)
        }
    }

    /// Returns the names of all entries of ``service``, sorted.
    public func names() throws -> [String] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else {
            throw KeystoreError.keychainFailure("list the entries", status: status)
        }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    /// Runs `body` while holding the lock on `name`, first within the process, then across processes.
    public func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        let entry = try EntryName(name)
        let path = lockDirectory + "/" + entry.stem + ".lock"
        return try await locks.withLock(entry.value) {
            let lock = try await FileLock.acquire(path: path, name: entry.value, timeout: lockTimeout)
            defer { lock.release() }
            return try await body()
        }
    }

    private static func defaultLockDirectory(service: String) throws -> URL {
        let caches = try FileManager.default.url(
            for: .cachesDirectory,
            in: .userDomainMask,
            appropriateFor: nil,
            create: true
        )
        return caches.appending(components: service, "locks")
    }

    private func baseQuery(_ account: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
    }
}
#endif
