#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
public import Foundation
public import Logging

/// A keystore that keeps each entry in its own encrypted file in a directory; the default on Linux.
///
/// Values are sealed with XChaCha20-Poly1305-IETF under a 32-byte store key, with a fresh random nonce for each
/// write and the entry's name bound as associated data, so a file copied or renamed to another entry is rejected
/// as corrupted. The store key comes from a passphrase (Argon2id, with the salt and limits kept in
/// `keystore.json`) or from a random key file. A key check in `keystore.json` tells a wrong passphrase or key
/// file apart from a damaged entry.
///
/// Files are written atomically (a temporary file, synced, renamed over the entry, then the directory synced), so
/// a crash leaves the previous or the new value, never a mix. An unreadable file is reported and left untouched.
///
/// Permissions: the directory is kept at `0700` and its files at `0600`. When the directory or a file in it is
/// open to group or others, the store tightens it and logs a warning with the path and old mode, since the fix
/// loses nothing. A key file open to group or others is refused with ``KeystoreError/insecureKeyFile`` instead,
/// as ssh does with private keys: it may already have been copied, and only the user can judge that.
///
/// The type is `Sendable` because all its stored properties are immutable and `Sendable`. The key is never
/// written after initialization, every file change is a single atomic rename, and read-modify-write sequences
/// across tasks and processes go through ``withLock(_:isolation:_:)``.
public final class EncryptedFileKeystore: Keystore {
    /// The default time ``withLock(_:isolation:_:)`` waits for a lock.
    public static let defaultLockTimeout = Duration.seconds(30)

    /// The store directory.
    public let directory: URL

    private let layout: StoreLayout
    private let key: SecretKey
    private let lockTimeout: Duration
    private let logger: Logger

    /// Opens the store in `directory`, creating the directory and the store when they are new.
    ///
    /// - Parameters:
    ///   - directory: The store directory; missing directories are created with mode `0700`.
    ///   - keySource: The passphrase or key file that unlocks the store.
    ///   - lockTimeout: How long ``withLock(_:isolation:_:)`` waits before throwing ``KeystoreError/lockTimeout``.
    ///   - logger: Receives warnings about repaired permissions; silent by default.
    /// - Throws: A ``KeystoreError`` saying why the store cannot be opened; nothing is changed in that case.
    public init(
        directory: URL,
        keySource: KeySource,
        lockTimeout: Duration = EncryptedFileKeystore.defaultLockTimeout,
        logger: Logger = Logger(label: "atoauth.keystore", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        try Sodium.initialize()
        if case .passphrase(let passphrase, let parameters) = keySource.kind {
            guard !passphrase.isEmpty else { throw KeystoreError.invalidPassphrase }
            try parameters.validate()
        }
        let layout = StoreLayout(directory: directory.path)
        try SecureDirectory.prepare(layout.directory, logger: logger)
        try SecureDirectory.prepare(layout.locks, logger: logger)
        let openLock = try FileLock.acquireBlocking(path: layout.openLock, name: "keystore", timeout: lockTimeout)
        defer { openLock.release() }
        self.key = try StoreUnlocker.unlock(layout, source: keySource, logger: logger)
        try StoreMaintenance.tidy(layout, logger: logger)
        self.directory = directory
        self.layout = layout
        self.lockTimeout = lockTimeout
        self.logger = logger
    }

    /// Returns the value stored under `name`, or `nil` when there is none.
    ///
    /// - Throws: ``KeystoreError/corrupted`` or ``KeystoreError/unsupportedVersion`` when the entry's file cannot
    ///   be read; the file is left untouched.
    public func load(_ name: String) throws -> Data? {
        let entry = try EntryName(name)
        let path = layout.entry(entry)
        guard let file = try SecureFile.read(path, repairingWith: logger) else { return nil }
        return try EntryCodec.decode(file, name: entry, path: path, key: key)
    }

    /// Encrypts `value` and atomically replaces the entry `name` with it.
    public func save(_ value: Data, as name: String) throws {
        let entry = try EntryName(name)
        if entry.isHashed {
            try saveNameFile(entry)
        }
        try SecureFile.writeAtomically(
            try EntryCodec.encode(value, name: entry, key: key),
            to: layout.entry(entry),
            temporaryPath: try layout.temporaryFile(),
            directory: layout.directory
        )
    }

    /// Removes the entry `name`; does nothing when there is none.
    public func delete(_ name: String) throws {
        let entry = try EntryName(name)
        let removed = try SecureFile.remove(layout.entry(entry))
        if entry.isHashed {
            try SecureFile.remove(layout.nameFile(entry))
        }
        if removed {
            try SecureFile.syncDirectory(layout.directory)
        }
    }

    /// The entry file's inode, size and modification time; one `stat`, no decryption.
    ///
    /// Every save replaces the file by a rename, so a new save always changes the inode or the time.
    public func revision(of name: String) throws -> EntryRevision? {
        try SecureFile.revision(of: layout.entry(try EntryName(name)))
    }

    /// Returns the names of all entries, sorted, ignoring temporary files and files the store did not write.
    public func names() throws -> [String] {
        var names: [String] = []
        for fileName in try SecureDirectory.contents(of: layout.directory) where StoreLayout.isEntryFile(fileName) {
            let stem = String(fileName.dropLast(StoreLayout.entrySuffix.count))
            if stem.hasPrefix(EntryName.hashedPrefix) {
                // Only a stem of the form the store writes has a name file to read; any other is a stranger's file,
                // whose name (repaired if it is not UTF-8) may not even make a valid path.
                if EntryName.isHashedStem(stem), let name = try hashedName(stem: stem, fileName: fileName) {
                    names.append(name)
                }
            } else if let name = EntryName.decode(stem: stem) {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// Runs `body` while holding an exclusive `flock` on the lock file of `name`, shared with other processes.
    ///
    /// Waiting does not block a thread: it polls every few milliseconds, throws `CancellationError` when the task
    /// is cancelled and ``KeystoreError/lockTimeout`` after the store's lock timeout. The lock is released however
    /// `body` ends.
    public func withLock<T>(
        _ name: String,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async throws -> T {
        let entry = try EntryName(name)
        let lock = try await FileLock.acquire(path: layout.lock(entry), name: name, timeout: lockTimeout)
        // A lock whose entry is gone when it is released (a finished sign-in's `pending/…`, a removed account)
        // leaves no file behind.
        defer { lock.release(removingFile: access(layout.entry(entry), F_OK) != 0) }
        return try await body()
    }

    private func saveNameFile(_ entry: EntryName) throws {
        let path = layout.nameFile(entry)
        let contents = Data(entry.value.utf8)
        guard try SecureFile.read(path) != contents else { return }
        try SecureFile.writeAtomically(
            contents,
            to: path,
            temporaryPath: try layout.temporaryFile(),
            directory: layout.directory
        )
    }

    private func hashedName(stem: String, fileName: String) throws -> String? {
        guard let data = try SecureFile.read(layout.nameFile(forEntryFile: fileName)),
            let name = String(validating: [UInt8](data), as: UTF8.self),
            (try? EntryName(name))?.stem == stem
        else { return nil }
        return name
    }
}
#endif
