#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
/// The paths of the files in a store directory.
///
/// ```
/// <directory>/            0700
///   keystore.json         metadata: format version, mode, salt, Argon2id limits, key check
///   keystore.lock         held while a process opens (and possibly creates) the store
///   <stem>.entry          one encrypted entry
///   ~<sha256>.name        the name of an entry whose stem is hashed
///   .<random>.tmp         a write in progress, renamed over its entry when complete
///   locks/                0700
///     <stem>.lock         the lock files of withLock
/// ```
struct StoreLayout: Sendable {
    static let entrySuffix = ".entry"
    static let nameSuffix = ".name"
    static let temporarySuffix = ".tmp"
    static let lockSuffix = ".lock"

    /// The store directory.
    let directory: String

    init(directory: String) {
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.directory = trimmed
    }

    /// The metadata file.
    var metadata: String { path("keystore.json") }

    /// The lock file held while the store is opened.
    var openLock: String { path("keystore.lock") }

    /// The directory of the lock files used by `withLock`.
    var locks: String { path("locks") }

    /// The file holding the entry `name`.
    func entry(_ name: EntryName) -> String {
        path(name.stem + Self.entrySuffix)
    }

    /// The side file holding the name of an entry whose stem is hashed.
    func nameFile(_ name: EntryName) -> String {
        path(name.stem + Self.nameSuffix)
    }

    /// The side file for a hashed stem, given the entry's file name.
    func nameFile(forEntryFile fileName: String) -> String {
        path(String(fileName.dropLast(Self.entrySuffix.count)) + Self.nameSuffix)
    }

    /// The lock file for the lock `name`.
    func lock(_ name: EntryName) -> String {
        locks + "/" + name.stem + Self.lockSuffix
    }

    /// Returns a new, unique temporary file path in the store directory.
    func temporaryFile() throws -> String {
        let random = Sodium.hex(try Sodium.randomBytes(16))
        return path("." + random + Self.temporarySuffix)
    }

    /// Returns the path of `fileName` inside the store directory.
    func path(_ fileName: String) -> String {
        directory == "/" ? "/" + fileName : directory + "/" + fileName
    }

    /// Returns whether `fileName` is an entry file.
    static func isEntryFile(_ fileName: String) -> Bool {
        fileName.hasSuffix(entrySuffix) && fileName.count > entrySuffix.count
    }

    /// Returns whether `fileName` is a temporary file left by a write.
    static func isTemporaryFile(_ fileName: String) -> Bool {
        fileName.hasPrefix(".") && fileName.hasSuffix(temporarySuffix)
    }
}
#endif
