import Foundation
import Keystore
import Testing

@Suite("File permissions")
struct PermissionTests {
    @Test("the store creates its directories with mode 0700 and its files with mode 0600")
    func createdModes() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.passphraseStore()
        try store.save(Data("v".utf8), as: "accounts")
        try await store.withLock("accounts") {}

        #expect(try fixture.mode(of: fixture.directory) == 0o700)
        #expect(try fixture.mode(of: fixture.file("locks")) == 0o700)
        #expect(try fixture.mode(of: fixture.file("keystore.json")) == 0o600)
        #expect(try fixture.mode(of: fixture.file("keystore.lock")) == 0o600)
        #expect(try fixture.mode(of: fixture.file("accounts.entry")) == 0o600)
        #expect(try fixture.mode(of: fixture.file("locks/accounts.lock")) == 0o600)
    }

    @Test("missing parent directories of the store are created with mode 0700")
    func createdParents() throws {
        let fixture = try StoreFixture()
        let nested = fixture.root.appending(path: "a/b/store")

        _ = try EncryptedFileKeystore(directory: nested, keySource: .keyFile(fixture.keyFile))

        #expect(try fixture.mode(of: fixture.root.appending(path: "a")) == 0o700)
        #expect(try fixture.mode(of: fixture.root.appending(path: "a/b")) == 0o700)
        #expect(try fixture.mode(of: nested) == 0o700)
    }

    @Test("opening repairs a directory and files open to group or others and logs each old mode")
    func repairsOnOpen() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("v".utf8), as: "accounts")
        try await store.withLock("accounts") {}
        let loose: [(String, Int)] = [
            ("", 0o755), ("locks", 0o777), ("accounts.entry", 0o644), ("keystore.json", 0o640),
            ("locks/accounts.lock", 0o666),
        ]
        for (path, mode) in loose {
            try fixture.setMode(mode, of: path.isEmpty ? fixture.directory : fixture.file(path))
        }

        let reopened = try fixture.keyFileStore()

        #expect(try reopened.load("accounts") == Data("v".utf8))
        let warnings = fixture.warnings()
        for (path, mode) in loose {
            let url = path.isEmpty ? fixture.directory : fixture.file(path)
            let expected = path.isEmpty || path == "locks" ? 0o700 : 0o600
            #expect(try fixture.mode(of: url) == expected)
            let oldMode = "0" + String(mode, radix: 8)
            #expect(warnings.contains { $0.contains(url.path) && $0.contains(oldMode) }, "no warning for \(path)")
        }
    }

    @Test("loading an entry repairs its loose mode and logs a warning")
    func repairsOnLoad() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("v".utf8), as: "accounts")
        try fixture.setMode(0o604, of: fixture.file("accounts.entry"))

        #expect(try store.load("accounts") == Data("v".utf8))

        #expect(try fixture.mode(of: fixture.file("accounts.entry")) == 0o600)
        #expect(fixture.warnings().contains { $0.contains("accounts.entry") && $0.contains("0604") })
    }

    @Test("a store whose files are already private logs no warning")
    func quietWhenPrivate() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("v".utf8), as: "accounts")

        _ = try fixture.keyFileStore().load("accounts")

        #expect(fixture.warnings().isEmpty)
    }

    @Test("a store directory that is a link to a directory of the user's, closed to others, is used as it is")
    func linkedDirectory() throws {
        let fixture = try StoreFixture()
        let target = fixture.root.appending(path: "real-store")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        chmod(target.path, 0o700)
        try FileManager.default.createSymbolicLink(at: fixture.directory, withDestinationURL: target)
        let store = try fixture.keyFileStore()
        try store.save(Data("x".utf8), as: "entry")
        #expect(try store.load("entry") == Data("x".utf8))
    }

    @Test("a store directory that is a link to a directory open to others is refused, and its mode left alone")
    func linkedLooseDirectory() throws {
        let fixture = try StoreFixture()
        let target = fixture.root.appending(path: "shared-dir")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        chmod(target.path, 0o755)
        try FileManager.default.createSymbolicLink(at: fixture.directory, withDestinationURL: target)
        let error = #expect(throws: KeystoreError.foreignOwner) { try fixture.keyFileStore() }
        #expect(error?.description.contains("symbolic link") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("chmod 700") == true)
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o755)
    }

    @Test("a lock directory that is a link to a directory open to others is refused, and its mode left alone")
    func linkedLooseLockDirectory() throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()
        let locks = fixture.directory.appending(path: "locks")
        try FileManager.default.removeItem(at: locks)
        let target = fixture.root.appending(path: "open-locks")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        chmod(target.path, 0o777)
        try FileManager.default.createSymbolicLink(at: locks, withDestinationURL: target)
        #expect(throws: KeystoreError.foreignOwner) { try fixture.keyFileStore() }
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o777)
    }
}
