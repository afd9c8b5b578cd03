import Foundation
import Keystore
import Testing

@Suite("Opening from the environment")
struct EnvironmentTests {
    @Test("ATOAUTH_PASSPHRASE selects a passphrase when it is not empty")
    func passphrase() throws {
        let source = try EncryptedFileKeystore.keySource(environment: ["ATOAUTH_PASSPHRASE": "p", "HOME": "/h"])
        let empty = try EncryptedFileKeystore.keySource(environment: ["ATOAUTH_PASSPHRASE": "", "HOME": "/h"])

        #expect(source.description == "passphrase (redacted)")
        #expect(empty.description == "key file /h/.config/atoauth/store.key")
    }

    @Test(
        "the key file comes from ATOAUTH_KEY_FILE, then XDG_CONFIG_HOME, then HOME",
        arguments: [
            (["ATOAUTH_KEY_FILE": "/k/key", "XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/k/key"),
            (["XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/x/atoauth/store.key"),
            (["XDG_CONFIG_HOME": "relative", "HOME": "/h"], "/h/.config/atoauth/store.key"),
            (["ATOAUTH_KEY_FILE": "", "HOME": "/h"], "/h/.config/atoauth/store.key"),
        ]
    )
    func keyFile(environment: [String: String], expected: String) throws {
        #expect(try EncryptedFileKeystore.defaultKeyFile(environment: environment).path == expected)
    }

    @Test("without HOME or ATOAUTH_KEY_FILE the key file cannot be found")
    func missingHome() throws {
        #expect(throws: KeystoreError.missingHome) { try EncryptedFileKeystore.keySource(environment: [:]) }
    }

    @Test("open creates the key file under HOME and reopens the store with it")
    func openWithHome() throws {
        let fixture = try StoreFixture()
        let environment = ["HOME": fixture.root.path]

        try EncryptedFileKeystore.open(directory: fixture.directory, environment: environment, logger: fixture.logger)
            .save(Data("v".utf8), as: "accounts")
        let reopened = try EncryptedFileKeystore.open(
            directory: fixture.directory,
            environment: environment,
            logger: fixture.logger
        )

        #expect(FileManager.default.fileExists(atPath: fixture.root.appending(path: ".config/atoauth/store.key").path))
        #expect(try reopened.load("accounts") == Data("v".utf8))
    }

    @Test("open uses ATOAUTH_PASSPHRASE for a store created with it")
    func openWithPassphrase() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore().save(Data("v".utf8), as: "accounts")
        let environment = ["ATOAUTH_PASSPHRASE": StoreFixture.passphrase, "HOME": fixture.root.path]

        let store = try EncryptedFileKeystore.open(
            directory: fixture.directory,
            environment: environment,
            logger: fixture.logger
        )

        #expect(try store.load("accounts") == Data("v".utf8))
    }
}
