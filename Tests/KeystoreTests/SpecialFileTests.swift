import Foundation
import Keystore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Without `O_NONBLOCK` and a file-type check these tests would block forever in `open` or `read`; the time limit
/// turns such a hang into a failure.
@Suite("FIFOs, devices and links in place of store files are refused", .timeLimit(.minutes(1)))
struct SpecialFileTests {
    @Test("a FIFO as the key file is refused without blocking")
    func fifoKeyFile() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        try FileManager.default.removeItem(at: fixture.keyFile)
        try makeFIFO(fixture.keyFile)

        let error = #expect(throws: KeystoreError.notRegularFile) { try fixture.keyFileStore() }

        #expect(error?.path == fixture.keyFile.path)
        #expect(error?.description.contains("a FIFO") == true)
    }

    @Test("a FIFO under a temporary file's name is left alone, and the store opens without blocking")
    func fifoTemporaryFile() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        try makeFIFO(fixture.file(".0123.tmp"))

        #expect(try fixture.keyFileStore().load("accounts") == Data("token".utf8))
        #expect(FileManager.default.fileExists(atPath: fixture.file(".0123.tmp").path))
    }

    @Test("a FIFO as an entry file is refused without blocking")
    func fifoEntry() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try makeFIFO(fixture.entryFile("accounts"))

        let error = #expect(throws: KeystoreError.notRegularFile) { try store.load("accounts") }

        #expect(error?.description.contains("a FIFO") == true)
    }

    @Test("a character device as the key file is refused", arguments: ["/dev/zero", "/dev/urandom"])
    func deviceKeyFile(device: String) throws {
        let fixture = try StoreFixture()
        let store = {
            try EncryptedFileKeystore(directory: fixture.directory, keySource: .keyFile(URL(filePath: device)))
        }

        let error = #expect(throws: KeystoreError.notRegularFile) { try store() }

        #expect(error?.description.contains("a character device") == true)
    }

    @Test("a key file that is a link to /dev/zero is refused, not followed")
    func linkToDeviceKeyFile() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        try FileManager.default.removeItem(at: fixture.keyFile)
        try FileManager.default.createSymbolicLink(atPath: fixture.keyFile.path, withDestinationPath: "/dev/zero")

        let error = #expect(throws: KeystoreError.notRegularFile) { try fixture.keyFileStore() }

        #expect(error?.description.contains("symbolic link") == true)
    }

    @Test("a link planted in place of an entry is refused, even when it points to a valid entry")
    func linkedEntry() throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        try store.save(Data("token".utf8), as: "accounts")
        let outside = fixture.root.appending(path: "outside.entry")
        try FileManager.default.moveItem(at: fixture.entryFile("accounts"), to: outside)
        try FileManager.default.createSymbolicLink(at: fixture.entryFile("accounts"), withDestinationURL: outside)

        let error = #expect(throws: KeystoreError.notRegularFile) { try store.load("accounts") }

        #expect(error?.path == fixture.entryFile("accounts").path)
        #expect(error?.description.contains("symbolic link") == true)
    }

    @Test("a link in place of the metadata file is refused")
    func linkedMetadata() throws {
        let fixture = try StoreFixture()
        _ = try fixture.keyFileStore()
        let outside = fixture.root.appending(path: "keystore.json")
        try FileManager.default.moveItem(at: fixture.file("keystore.json"), to: outside)
        try FileManager.default.createSymbolicLink(at: fixture.file("keystore.json"), withDestinationURL: outside)

        #expect(throws: KeystoreError.notRegularFile) { try fixture.keyFileStore() }
    }

    @Test("a link in place of a lock file is refused")
    func linkedLock() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.keyFileStore()
        let outside = fixture.root.appending(path: "target.lock")
        try Data().write(to: outside)
        let lock = fixture.file("locks/accounts.lock")
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: outside)

        await #expect(throws: KeystoreError.notRegularFile) { try await store.withLock("accounts") {} }
    }

    @Test("a store directory owned by another user is refused", .enabled(if: geteuid() == 0))
    func foreignDirectory() throws {
        let fixture = try StoreFixture()
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        #expect(chown(fixture.directory.path, 65_534, 65_534) == 0)

        let error = #expect(throws: KeystoreError.foreignOwner) { try fixture.keyFileStore() }

        #expect(error?.path == fixture.directory.path)
        #expect(error?.description.contains("belongs to user 65534") == true)
    }

    private func makeFIFO(_ url: URL) throws {
        try #require(mkfifo(url.path, 0o600) == 0)
    }
}
