import Foundation
import InMemoryLogging
import Keystore
import Testing

@Suite("Secrets at rest")
struct SecretLeakTests {
    private static let passphrase = "pass-MARKER-4f7c1e-phrase"
    private static let value = "value-MARKER-9a2b3d-secret"

    @Test("neither the passphrase nor a value appears in any file under the store")
    func noPlaintextOnDisk() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.passphraseStore(Self.passphrase)
        try store.save(Data(Self.value.utf8), as: "session/did:plc:abc234")
        try store.save(Data(String(repeating: Self.value, count: 100).utf8), as: String(repeating: "/", count: 150))
        try await store.withLock("session/did:plc:abc234") {
            try store.save(Data(Self.value.utf8), as: "accounts")
        }
        _ = try fixture.passphraseStore(Self.passphrase).load("accounts")

        let files = try fixture.allFiles()
        #expect(files.count >= 7)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(!bytes.contains(Data(Self.passphrase.utf8)), "passphrase found in \(file.path)")
            #expect(!bytes.contains(Data(Self.value.utf8)), "value found in \(file.path)")
            #expect(!bytes.contains(Data("MARKER".utf8)), "marker found in \(file.path)")
        }
    }

    @Test("errors, logs and descriptions of the key source never show the passphrase")
    func noPassphraseInText() throws {
        let fixture = try StoreFixture()
        try fixture.passphraseStore("first-\(Self.passphrase)").save(Data(Self.value.utf8), as: "accounts")
        try fixture.setMode(0o644, of: fixture.file("accounts.entry"))

        let error = #expect(throws: KeystoreError.wrongPassphrase) { try fixture.passphraseStore(Self.passphrase) }
        _ = try fixture.passphraseStore("first-\(Self.passphrase)").load("accounts")

        let source = EncryptedFileKeystore.KeySource.passphrase(Self.passphrase)
        var dumped = ""
        dump(source, to: &dumped)
        let texts =
            [
                error?.description ?? "", String(describing: source), String(reflecting: source), dumped,
            ] + fixture.logs.entries.map { "\($0.message) \($0.metadata)" }
        for text in texts {
            #expect(!text.contains("MARKER"), "secret in \(text)")
        }
        #expect(!fixture.logs.entries.isEmpty)
    }
}
