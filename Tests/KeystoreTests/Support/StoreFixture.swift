import Foundation
import InMemoryLogging
import Keystore
import Logging
import Testing

/// A temporary directory for one test, with helpers to open stores in it; removed when the test ends.
final class StoreFixture: Sendable {
    static let passphrase = "correct horse battery staple"

    /// The temporary directory; the store lives in `store/`, the key file in `keys/`.
    let root: URL
    /// Everything the stores opened by this fixture logged.
    let logs: InMemoryLogHandler

    var directory: URL { root.appending(path: "store") }
    var keyFile: URL { root.appending(path: "keys/store.key") }

    var logger: Logger {
        var handler = logs
        handler.logLevel = .trace
        return Logger(label: "KeystoreTests") { _ in handler }
    }

    init() throws {
        root = FileManager.default.temporaryDirectory.appending(path: "atoauth-keystore-\(UUID().uuidString)")
        logs = InMemoryLogHandler()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Opens the store with a passphrase and libsodium's minimum Argon2id limits.
    func passphraseStore(_ passphrase: String = StoreFixture.passphrase) throws -> EncryptedFileKeystore {
        try EncryptedFileKeystore(
            directory: directory,
            keySource: .passphrase(passphrase, parameters: .minimum),
            logger: logger
        )
    }

    /// Opens the store with the fixture's key file.
    func keyFileStore(lockTimeout: Duration = .seconds(30)) throws -> EncryptedFileKeystore {
        try EncryptedFileKeystore(
            directory: directory,
            keySource: .keyFile(keyFile),
            lockTimeout: lockTimeout,
            logger: logger
        )
    }

    /// The path of a file in the store directory.
    func file(_ name: String) -> URL {
        directory.appending(path: name)
    }

    /// The file of an entry whose name needs no escaping beyond `/` and `:`.
    func entryFile(_ name: String) -> URL {
        let stem = name.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: ":", with: "%3A")
        return file(stem + ".entry")
    }

    /// Returns the permission bits of the file at `url`.
    func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    /// Sets the permission bits of the file at `url`.
    func setMode(_ mode: Int, of url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    /// Returns the text of every warning logged so far.
    func warnings() -> [String] {
        logs.entries.filter { $0.level == .warning }.map { "\($0.message)" }
    }

    /// Returns every file under `root`, recursively.
    func allFiles() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
                files.append(url)
            }
        }
        return files
    }
}

extension Data {
    /// Returns whether `needle` occurs anywhere in the data.
    func contains(_ needle: Data) -> Bool {
        range(of: needle) != nil
    }
}
