import ATOAuthTesting
import Foundation
import Keystore
import PostgresStore
import Testing

@Suite("Values reach the database sealed with the store key")
struct SealingTests {
    static let secret = "at+jwt.secret-access-token-0123456789"

    @Test("a dump of the database holds no value in the clear, in hex or in base64")
    func dumpShowsNoSecret() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await store.save(Data(Self.secret.utf8), as: "session/did:plc:aaa")
                try await store.save(Data(Self.secret.utf8), as: "dpop-key/did:plc:aaa")
                try await store.save(Data(Self.secret.utf8), as: "refreshing/did:plc:aaa")
            }
            let dump = try await fixture.server.dump(fixture.database.name)
            #expect(dump.contains("atoauth_sessions"))
            #expect(dump.contains("did:plc:aaa"))
            let bytes = Data(Self.secret.utf8)
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            for form in [Self.secret, hex, bytes.base64EncodedString(), String(Self.secret.prefix(16))] {
                #expect(!dump.contains(form), "the dump contains \(form)")
            }
        }
    }

    @Test("a value copied to another account's row, or altered, is refused as corrupted and left in place")
    func movedOrAlteredValue() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await store.save(Data("alice".utf8), as: "session/did:plc:alice")
                try await store.save(Data("bob".utf8), as: "session/did:plc:bob")
                try await fixture.sql(
                    "UPDATE atoauth_sessions SET sealed = (SELECT sealed FROM atoauth_sessions WHERE did = 'did:plc:alice') "
                        + "WHERE did = 'did:plc:bob'"
                )
                let moved = await #expect(throws: KeystoreError.corrupted) {
                    try await store.load("session/did:plc:bob")
                }
                #expect(moved?.description.contains("session/did:plc:bob") == true)
                #expect(moved?.description.contains("PostgreSQL") == true)
                try await fixture.sql(
                    "UPDATE atoauth_sessions SET sealed = overlay(sealed placing '\\xff'::bytea from 40) "
                        + "WHERE did = 'did:plc:alice'"
                )
                await #expect(throws: KeystoreError.corrupted) { try await store.load("session/did:plc:alice") }
                #expect(try await store.names().contains("session/did:plc:bob"))
            }
        }
    }

    @Test("a value larger than any entry may be is refused as corrupted, not fetched, and left in place")
    func oversizedValue() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await store.save(Data("alice".utf8), as: "session/did:plc:alice")
                try await fixture.sql(
                    "UPDATE atoauth_sessions SET sealed = sealed || decode(repeat('00', 16777216), 'hex') "
                        + "WHERE did = 'did:plc:alice'"
                )
                let error = await #expect(throws: KeystoreError.corrupted) {
                    try await store.load("session/did:plc:alice")
                }
                #expect(
                    error?.description.contains("more than the 16 MiB any entry may be") == true,
                    "\(String(describing: error))"
                )
                let size = "SELECT octet_length(sealed) > 16777216 FROM atoauth_sessions WHERE did = 'did:plc:alice'"
                #expect(try await fixture.sql(size).trimmingCharacters(in: .whitespacesAndNewlines) == "t")
            }
        }
    }

    @Test("another key file, a missing key file or a passphrase does not open a store made with a key file")
    func wrongKeySources() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in try await store.save(Data("x".utf8), as: "session/did:plc:aaa") }
            let other = fixture.directory.appendingPathComponent("other.key")
            try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: other)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: other.path)
            await #expect(throws: KeystoreError.wrongKeyFile) {
                try await fixture.withStore(keySource: .keyFile(other)) { _ in }
            }
            let missing = fixture.directory.appendingPathComponent("missing.key")
            await #expect(throws: KeystoreError.missingKeyFile) {
                try await fixture.withStore(keySource: .keyFile(missing)) { _ in }
            }
            #expect(!FileManager.default.fileExists(atPath: missing.path))
            await #expect(throws: KeystoreError.unexpectedPassphrase) {
                try await fixture.withStore(keySource: .passphrase("p", parameters: .minimum)) { _ in }
            }
        }
    }

    @Test("a passphrase store opens with its passphrase on any machine and refuses another")
    func passphrase() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore(keySource: .passphrase("correct horse", parameters: .minimum)) { store in
                try await store.save(Data("x".utf8), as: "session/did:plc:aaa")
            }
            try await fixture.withStore(keySource: .passphrase("correct horse", parameters: .minimum)) { store in
                let value = try await store.load("session/did:plc:aaa")
                #expect(value == Data("x".utf8))
            }
            await #expect(throws: KeystoreError.wrongPassphrase) {
                try await fixture.withStore(keySource: .passphrase("wrong", parameters: .minimum)) { _ in }
            }
            await #expect(throws: KeystoreError.passphraseRequired) {
                try await fixture.withStore { _ in }
            }
        }
    }

    @Test("four processes opening an empty database at once make one key and read each other's values")
    func concurrentCreation() async throws {
        try await StoreFixture.with { fixture in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await fixture.withStore { store in
                            try await store.save(Data("\(index)".utf8), as: "entry/\(index)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await fixture.withStore { store in
                for index in 0..<4 {
                    let value = try await store.load("entry/\(index)")
                    #expect(value == Data("\(index)".utf8))
                }
            }
            #expect(try await fixture.sql("SELECT count(*) FROM atoauth_store_key") == "1")
        }
    }

    @Test("a database that holds entries but lost its key row is refused, and no new key is made")
    func lostKeyRow() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in try await store.save(Data("x".utf8), as: "session/did:plc:aaa") }
            try await fixture.sql("DELETE FROM atoauth_store_key")
            await #expect(throws: KeystoreError.missingMetadata) { try await fixture.withStore { _ in } }
            #expect(try await fixture.sql("SELECT count(*) FROM atoauth_store_key") == "0")
        }
    }
}
