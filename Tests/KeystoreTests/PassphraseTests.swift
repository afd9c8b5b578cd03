import Foundation
import Keystore
import Testing

@Suite("Passphrase-protected stores")
struct PassphraseTests {
    @Test("a wrong passphrase is refused and the right one still reads the entry")
    func wrongPassphrase() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("token".utf8), as: "session/did:plc:abc234")
        let before = try Data(contentsOf: fixture.entryFile("session/did:plc:abc234"))

        let error = #expect(throws: KeystoreError.wrongPassphrase) { try fixture.passphraseStore("wrong") }

        #expect(error?.description.contains(fixture.directory.path) == true)
        #expect(error?.description.contains("nothing was changed") == true)
        #expect(try Data(contentsOf: fixture.entryFile("session/did:plc:abc234")) == before)
        #expect(try fixture.passphraseStore().load("session/did:plc:abc234") == Data("token".utf8))
    }

    @Test("a passphrase store opened without a passphrase asks for one and creates no key file")
    func passphraseRequired() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("token".utf8), as: "accounts")

        let error = #expect(throws: KeystoreError.passphraseRequired) { try fixture.keyFileStore() }

        #expect(error?.description.contains("protected by a passphrase, but none was given") == true)
        #expect(!FileManager.default.fileExists(atPath: fixture.keyFile.path))
        #expect(try fixture.passphraseStore().load("accounts") == Data("token".utf8))
    }

    @Test("a passphrase given for a key-file store is refused")
    func unexpectedPassphrase() throws {
        let fixture = try StoreFixture()
        try fixture.keyFileStore().save(Data("token".utf8), as: "accounts")

        let error = #expect(throws: KeystoreError.unexpectedPassphrase) { try fixture.passphraseStore() }

        #expect(error?.description.contains("key file") == true)
        #expect(try fixture.keyFileStore().load("accounts") == Data("token".utf8))
    }

    @Test("an empty passphrase is refused")
    func emptyPassphrase() throws {
        let fixture = try StoreFixture()

        #expect(throws: KeystoreError.invalidPassphrase) { try fixture.passphraseStore("") }
    }

    @Test("Argon2id limits outside libsodium's range are refused")
    func invalidParameters() throws {
        let fixture = try StoreFixture()
        let tooSmall = KeyDerivationParameters(operationsLimit: 1, memoryLimit: 1024)

        #expect(throws: KeystoreError.invalidParameters) {
            try EncryptedFileKeystore(directory: fixture.directory, keySource: .passphrase("p", parameters: tooSmall))
        }
    }

    @Test("new stores default to libsodium's interactive Argon2id limits, recorded in keystore.json")
    func defaultParameters() throws {
        let fixture = try StoreFixture()
        #expect(KeyDerivationParameters.interactive.operationsLimit == 2)
        #expect(KeyDerivationParameters.interactive.memoryLimit == 64 * 1024 * 1024)

        let store = try EncryptedFileKeystore(directory: fixture.directory, keySource: .passphrase("p"))
        try store.save(Data("v".utf8), as: "accounts")

        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.file("keystore.json")))
        let fields = try #require(metadata as? [String: Any])
        #expect(fields["mode"] as? String == "passphrase")
        #expect(fields["opsLimit"] as? Int == 2)
        #expect(fields["memLimit"] as? Int == 64 * 1024 * 1024)
        #expect(fields["formatVersion"] as? Int == 1)
        #expect((fields["salt"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 16)
        #expect(fields["keyCheck"] is String)
    }

    @Test("an existing store keeps the limits it was created with")
    func storedParametersWin() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("v".utf8), as: "accounts")

        let reopened = try EncryptedFileKeystore(
            directory: fixture.directory,
            keySource: .passphrase(StoreFixture.passphrase, parameters: .interactive)
        )

        #expect(try reopened.load("accounts") == Data("v".utf8))
    }
}
