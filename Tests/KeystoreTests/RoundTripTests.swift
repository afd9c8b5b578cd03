import Foundation
import Keystore
import Testing

@Suite("Encrypted file keystore round trips")
struct RoundTripTests {
    @Test("saves, loads, lists and deletes entries with slashes and colons in their names")
    func roundTrip() throws {
        let fixture = try StoreFixture()
        let store = try fixture.passphraseStore()
        let names = ["session/did:plc:abc234", "dpop-key/did:plc:abc234", "pending/xyz-_.123", "accounts"]
        for name in names {
            try store.save(Data("value of \(name)".utf8), as: name)
        }

        for name in names {
            #expect(try store.load(name) == Data("value of \(name)".utf8))
        }
        #expect(try store.names() == names.sorted())

        try store.delete("accounts")
        #expect(try store.load("accounts") == nil)
        #expect(try store.names() == names.filter { $0 != "accounts" }.sorted())
    }

    @Test("reads what another instance of the same store wrote")
    func reopen() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("kept".utf8), as: "session/did:plc:abc234")

        let reopened = try fixture.passphraseStore()

        #expect(try reopened.load("session/did:plc:abc234") == Data("kept".utf8))
    }

    @Test("replaces a value when it is saved again")
    func overwrite() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("first".utf8), as: "accounts")
        try store.save(Data("second, longer value".utf8), as: "accounts")
        try store.save(Data(), as: "empty")

        #expect(try store.load("accounts") == Data("second, longer value".utf8))
        #expect(try store.load("empty") == Data())
        #expect(try store.names() == ["accounts", "empty"])
    }

    @Test("returns nil for a missing entry and deletes a missing entry without error")
    func absent() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()

        #expect(try store.load("nothing") == nil)
        try store.delete("nothing")
        #expect(try store.names().isEmpty)
    }

    @Test("stores each entry in a file named by percent-encoding its name")
    func fileNames() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("x".utf8), as: "session/did:plc:abc234")
        try store.save(Data("y".utf8), as: "café ü")

        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path)
        #expect(files.contains("session%2Fdid%3Aplc%3Aabc234.entry"))
        #expect(files.contains("caf%C3%A9%20%C3%BC.entry"))
        #expect(try store.names() == ["café ü", "session/did:plc:abc234"])
    }

    @Test("accepts names up to 200 UTF-8 bytes, including ones whose encoding is too long for a file name")
    func longNames() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        let plain = String(repeating: "a", count: 200)
        let escaped = String(repeating: "/", count: 200)
        let unicode = String(repeating: "é", count: 100)
        for name in [plain, escaped, unicode] {
            try store.save(Data(name.utf8), as: name)
        }

        for name in [plain, escaped, unicode] {
            #expect(try store.load(name) == Data(name.utf8))
        }
        #expect(try store.names() == [plain, escaped, unicode].sorted())
        try store.delete(escaped)
        #expect(try store.names() == [plain, unicode].sorted())
        #expect(try fixture.keyFileStore().load(unicode) == Data(unicode.utf8))
    }

    @Test("rejects empty names and names over 200 UTF-8 bytes", arguments: ["", String(repeating: "a", count: 201)])
    func invalidNames(name: String) throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()

        #expect(throws: KeystoreError.invalidName) { try store.save(Data(), as: name) }
        #expect(throws: KeystoreError.invalidName) { try store.load(name) }
        #expect(throws: KeystoreError.invalidName) { try store.delete(name) }
    }

    @Test("ignores files it did not write when listing names")
    func foreignFiles() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("x".utf8), as: "real")
        for name in ["README", "bad%zz.entry", "lower%2f.entry", "A%41.entry", ".entry", "~abc.entry"] {
            try Data("junk".utf8).write(to: fixture.file(name))
        }

        #expect(try store.names() == ["real"])
    }

    @Test("a name that begins with ~ is escaped on disk, so it never reads as a hashed name")
    func tildeEscaped() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("x".utf8), as: "~x y")

        #expect(FileManager.default.fileExists(atPath: fixture.file("%7Ex%20y.entry").path))
        #expect(try store.names() == ["~x y"])
        #expect(try store.load("~x y") == Data("x".utf8))
    }

    @Test("ignores a file whose name is not UTF-8, even one that starts like a hashed name (found by FuzzKeystore)")
    func nonUTF8FileName() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("x".utf8), as: "real")
        // 107 bytes on disk; read back with each 0xFF as U+FFFD, its name file's path would be 306 bytes long.
        let name = [UInt8(ascii: "~")] + [UInt8](repeating: 0xFF, count: 100) + Array(".entry".utf8)
        let path = Array(fixture.directory.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        }
        try #require(descriptor >= 0)
        close(descriptor)

        #expect(try store.names() == ["real"])
    }

    @Test("ignores temporary files when listing and removes stale ones when opening")
    func temporaryFiles() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("x".utf8), as: "real")
        let stale = fixture.file(".0123abcd.tmp")
        let fresh = fixture.file(".4567cdef.tmp")
        try Data("partial".utf8).write(to: stale)
        try Data("partial".utf8).write(to: fresh)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)],
            ofItemAtPath: stale.path
        )

        #expect(try store.names() == ["real"])
        _ = try fixture.keyFileStore()
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
    }
}
