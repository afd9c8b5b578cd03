import Foundation
import Keystore
import Testing

@Suite("Damaged entry and metadata files")
struct CorruptionTests {
    private static let name = "session/did:plc:abc234"

    /// Saves an entry, damages its file with `damage`, and returns the store, the file and its damaged bytes.
    private func damagedEntry(_ damage: (inout Data) -> Void) throws -> (StoreFixture, URL, Data) {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("token value".utf8), as: Self.name)
        let file = fixture.entryFile(Self.name)
        var bytes = try Data(contentsOf: file)
        damage(&bytes)
        try bytes.write(to: file)
        return (fixture, file, bytes)
    }

    @Test("a flipped ciphertext byte is reported as corruption naming the entry and file, which is left untouched")
    func flippedByte() throws {
        let (fixture, file, damaged) = try damagedEntry { $0[$0.count - 3] ^= 0x01 }
        let store = try fixture.passphraseStore()

        let error = #expect(throws: KeystoreError.corrupted) { try store.load(Self.name) }

        #expect(error?.path == file.path)
        #expect(error?.description.contains(Self.name) == true)
        #expect(error?.description.contains(file.path) == true)
        #expect(try Data(contentsOf: file) == damaged)
        #expect(try store.names() == [Self.name])
    }

    @Test("a truncated file is reported as corruption and left untouched", arguments: [0, 3, 5, 20, 40])
    func truncated(length: Int) throws {
        let (fixture, file, damaged) = try damagedEntry { $0 = $0.prefix(length) }
        let store = try fixture.passphraseStore()

        #expect(throws: KeystoreError.corrupted) { try store.load(Self.name) }

        #expect(try Data(contentsOf: file) == damaged)
    }

    @Test("a file with the wrong magic bytes is reported as corruption")
    func wrongMagic() throws {
        let (fixture, file, damaged) = try damagedEntry { $0[0] = UInt8(ascii: "X") }

        #expect(throws: KeystoreError.corrupted) { try fixture.passphraseStore().load(Self.name) }

        #expect(try Data(contentsOf: file) == damaged)
    }

    @Test("a file from a newer format version asks to upgrade atoauth")
    func newerVersion() throws {
        let (fixture, file, damaged) = try damagedEntry { $0[4] = 2 }

        let error = #expect(throws: KeystoreError.unsupportedVersion) {
            try fixture.passphraseStore().load(Self.name)
        }

        #expect(error?.description.contains("Upgrade atoauth") == true)
        #expect(try Data(contentsOf: file) == damaged)
    }

    @Test("two entry files swapped with each other are both reported as corrupted")
    func swappedFiles() throws {
        let fixture = try StoreFixture()
        let store = try fixture.passphraseStore()
        let first = "session/did:plc:aaaaaa"
        let second = "session/did:plc:bbbbbb"
        try store.save(Data("first".utf8), as: first)
        try store.save(Data("second".utf8), as: second)
        let firstBytes = try Data(contentsOf: fixture.entryFile(first))
        let secondBytes = try Data(contentsOf: fixture.entryFile(second))
        try secondBytes.write(to: fixture.entryFile(first))
        try firstBytes.write(to: fixture.entryFile(second))

        #expect(throws: KeystoreError.corrupted) { try store.load(first) }
        #expect(throws: KeystoreError.corrupted) { try store.load(second) }

        try firstBytes.write(to: fixture.entryFile(first))
        try secondBytes.write(to: fixture.entryFile(second))
        #expect(try store.load(first) == Data("first".utf8))
        #expect(try store.load(second) == Data("second".utf8))
    }

    @Test("a store with entries but no keystore.json refuses to open instead of starting over")
    func missingMetadata() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")
        let metadata = try Data(contentsOf: fixture.file("keystore.json"))
        try FileManager.default.removeItem(at: fixture.file("keystore.json"))

        #expect(throws: KeystoreError.missingMetadata) { try fixture.keyFileStore() }

        #expect(!FileManager.default.fileExists(atPath: fixture.file("keystore.json").path))
        try metadata.write(to: fixture.file("keystore.json"))
        #expect(try fixture.keyFileStore().load("accounts") == Data("token".utf8))
    }

    @Test("unreadable keystore.json is reported and left untouched")
    func corruptedMetadata() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("token".utf8), as: "accounts")
        let metadataFile = fixture.file("keystore.json")
        for garbage in ["not json", #"{"formatVersion": 1, "mode": "passphrase"}"#, #"{"formatVersion": 0}"#] {
            try Data(garbage.utf8).write(to: metadataFile)

            #expect(throws: KeystoreError.corruptedMetadata) { try fixture.passphraseStore() }

            #expect(try Data(contentsOf: metadataFile) == Data(garbage.utf8))
        }
    }

    @Test("a key check cut short or emptied is damage to keystore.json, not a wrong passphrase or key file")
    func truncatedKeyCheck() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("token".utf8), as: "accounts")
        let metadataFile = fixture.file("keystore.json")
        let original = try Data(contentsOf: metadataFile)
        var metadata = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        let encodedKeyCheck = try #require(metadata["keyCheck"] as? String)
        let keyCheck = try #require(Data(base64Encoded: encodedKeyCheck))
        for damaged in [Data(), keyCheck.prefix(30), keyCheck + Data([0])] {
            metadata["keyCheck"] = damaged.base64EncodedString()
            try JSONSerialization.data(withJSONObject: metadata).write(to: metadataFile)

            let error = #expect(throws: KeystoreError.corruptedMetadata) { try fixture.passphraseStore() }

            #expect(error?.description.contains("keyCheck is \(damaged.count) bytes") == true)
        }
        try original.write(to: metadataFile)
        #expect(try fixture.passphraseStore().load("accounts") == Data("token".utf8))
    }

    @Test("keystore.json from a newer format version asks to upgrade atoauth")
    func newerMetadata() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("token".utf8), as: "accounts")
        let metadataFile = fixture.file("keystore.json")
        let text = try String(contentsOf: metadataFile, encoding: .utf8)
        let newer = text.replacingOccurrences(of: #""formatVersion" : 1"#, with: #""formatVersion" : 7"#)
        try Data(newer.utf8).write(to: metadataFile)

        let error = #expect(throws: KeystoreError.unsupportedVersion) { try fixture.passphraseStore() }

        #expect(error?.description.contains("Upgrade atoauth") == true)
        #expect(try String(contentsOf: metadataFile, encoding: .utf8) == newer)
    }
}
