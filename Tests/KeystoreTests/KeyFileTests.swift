import Foundation
import Keystore
import Testing

@Suite("Key-file-protected stores")
struct KeyFileTests {
    @Test("a new store creates a 32-byte key file with mode 0600 in a 0700 directory")
    func createsKeyFile() throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()

        #expect(try Data(contentsOf: fixture.keyFile).count == 32)
        #expect(try fixture.mode(of: fixture.keyFile) == 0o600)
        #expect(try fixture.mode(of: fixture.keyFile.deletingLastPathComponent()) == 0o700)
    }

    @Test("a new store uses a key file that already exists")
    func usesExistingKeyFile() throws {
        let fixture = try StoreFixture()
        let key = Data((0..<32).map { UInt8($0) })
        try FileManager.default.createDirectory(
            at: fixture.keyFile.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try key.write(to: fixture.keyFile)
        try fixture.setMode(0o600, of: fixture.keyFile)

        try fixture.keyFileStore().save(Data("v".utf8), as: "accounts")

        #expect(try Data(contentsOf: fixture.keyFile) == key)
        #expect(try fixture.keyFileStore().load("accounts") == Data("v".utf8))
    }

    @Test("a missing key file is reported and never replaced by a new key")
    func missingKeyFile() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        let saved = fixture.root.appending(path: "backup.key")
        try FileManager.default.moveItem(at: fixture.keyFile, to: saved)

        let error = #expect(throws: KeystoreError.missingKeyFile) { try fixture.keyFileStore() }

        #expect(error?.path == fixture.keyFile.path)
        #expect(error?.description.contains(fixture.keyFile.path) == true)
        #expect(!FileManager.default.fileExists(atPath: fixture.keyFile.path))
        try FileManager.default.moveItem(at: saved, to: fixture.keyFile)
        #expect(try fixture.keyFileStore().load("accounts") == Data("token".utf8))
    }

    @Test("a key file of the wrong size is refused", arguments: [0, 31, 33, 64])
    func wrongSize(size: Int) throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        let key = try Data(contentsOf: fixture.keyFile)
        try Data(repeating: 7, count: size).write(to: fixture.keyFile)
        try fixture.setMode(0o600, of: fixture.keyFile)

        let error = #expect(throws: KeystoreError.invalidKeyFile) { try fixture.keyFileStore() }

        #expect(error?.description.contains("\(size) bytes") == true)
        try key.write(to: fixture.keyFile)
        #expect(try fixture.keyFileStore().load("accounts") == Data("token".utf8))
    }

    @Test("a key file readable by others is refused, not repaired")
    func insecureKeyFile() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        try fixture.setMode(0o644, of: fixture.keyFile)

        let error = #expect(throws: KeystoreError.insecureKeyFile) { try fixture.keyFileStore() }

        #expect(error?.description.contains("chmod 600 \(fixture.keyFile.path)") == true)
        #expect(error?.description.contains("0644") == true)
        #expect(try fixture.mode(of: fixture.keyFile) == 0o644)
        try fixture.setMode(0o600, of: fixture.keyFile)
        #expect(try fixture.keyFileStore().load("accounts") == Data("token".utf8))
    }

    @Test("a different key file is told apart from a damaged entry")
    func wrongKeyFile() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        let key = try Data(contentsOf: fixture.keyFile)
        try Data(repeating: 9, count: 32).write(to: fixture.keyFile)

        #expect(throws: KeystoreError.wrongKeyFile) { try fixture.keyFileStore() }

        try key.write(to: fixture.keyFile)
        #expect(try fixture.keyFileStore().load("accounts") == Data("token".utf8))
    }

    @Test("a temporary key file left by a killed process is removed when the key is next read; a new one is kept")
    func leftoverTemporaryKeyFile() throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()
        let keys = fixture.keyFile.deletingLastPathComponent()
        let stale = keys.appending(path: "." + String(repeating: "ab", count: 16) + ".key.tmp")
        let fresh = keys.appending(path: "." + String(repeating: "cd", count: 16) + ".key.tmp")
        let other = keys.appending(path: ".notours.key.tmp")
        for file in [stale, fresh, other] {
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data(count: 32)))
        }
        let old = Date(timeIntervalSinceNow: -60)
        for file in [stale, other] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
        }
        _ = try fixture.keyFileStore()
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path), "a key file being written right now stays")
        #expect(FileManager.default.fileExists(atPath: other.path), "only atoauth's own names are swept")
    }
}
