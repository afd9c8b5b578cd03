import Foundation
import Keystore
import Logging
import Testing

@testable import atoauth

@Suite("Where atoauth finds the keystore's secret")
struct StoreEnvironmentTests {
    @Test("ATOAUTH_PASSPHRASE selects a passphrase when it is not empty")
    func passphrase() throws {
        let source = try StoreEnvironment.keySource(environment: ["ATOAUTH_PASSPHRASE": "p", "HOME": "/h"])
        let empty = try StoreEnvironment.keySource(environment: ["ATOAUTH_PASSPHRASE": "", "HOME": "/h"])

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
        #expect(try StoreEnvironment.defaultKeyFile(environment: environment).path == expected)
    }

    @Test("without HOME or ATOAUTH_KEY_FILE the key file cannot be found: a usage error that says what to set")
    func missingHome() throws {
        let failure = #expect(throws: CLIFailure.self) { try StoreEnvironment.keySource(environment: [:]) }
        #expect(failure?.status == .usage)
        #expect(failure?.message.contains("ATOAUTH_KEY_FILE") == true)
    }

    @Test("open creates the key file under HOME and reopens the store with it; a passphrase store opens with it")
    func open() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "atoauth-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let keyFileStore = root.appending(path: "store")
        let environment = ["HOME": root.path]

        try StoreEnvironment.open(directory: keyFileStore, environment: environment, logger: logger)
            .save(Data("v".utf8), as: "accounts")
        let reopened = try StoreEnvironment.open(directory: keyFileStore, environment: environment, logger: logger)
        #expect(FileManager.default.fileExists(atPath: root.appending(path: ".config/atoauth/store.key").path))
        #expect(try reopened.load("accounts") == Data("v".utf8))

        let passphraseStore = root.appending(path: "passphrase-store")
        let withPassphrase = ["ATOAUTH_PASSPHRASE": "correct horse", "HOME": root.path]
        try StoreEnvironment.open(directory: passphraseStore, environment: withPassphrase, logger: logger)
            .save(Data("w".utf8), as: "accounts")
        let again = try StoreEnvironment.open(directory: passphraseStore, environment: withPassphrase, logger: logger)
        #expect(try again.load("accounts") == Data("w".utf8))

        // The library says what is wrong; the CLI adds which variable to change.
        let refused = #expect(throws: KeystoreError.passphraseRequired) {
            try StoreEnvironment.open(directory: passphraseStore, environment: environment, logger: logger)
        }
        let message = CLIFailure(try #require(refused)).message
        #expect(
            message.contains("protected by a passphrase")
                && message.hasSuffix("Set ATOAUTH_PASSPHRASE to its passphrase.")
        )
    }
}
