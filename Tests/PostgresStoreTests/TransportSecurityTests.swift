import ATOAuthTesting
import Failures
import Foundation
import Keystore
import PostgresStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("The database password goes only to a verified server, and TLS failures say what is wrong")
struct TransportSecurityTests {
    @Test(
        "a password to another machine over TLS that verifies nothing is refused before any connection",
        arguments: ["prefer", "allow", "require"]
    )
    func unverifiedRemote(mode: String) async throws {
        let configuration = try PostgresStore.Configuration(
            url: "postgresql://bot:hunter2@db.example:5432/atoauth?sslmode=\(mode)"
        )
        let error = await #expect(throws: PostgresStoreError.unverifiedServer) {
            try await PostgresStore.withStore(
                configuration: configuration,
                keySource: .keyFile(URL(fileURLWithPath: "/nonexistent"))
            ) { _ in }
        }
        #expect(error?.category == .usage)
        #expect(error?.description.contains("sslmode=\(mode) does not verify") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("verify-full") == true)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test("a fake server that declines TLS under verify-full gets no password; under prefer on loopback it would")
    func declinedTLS() async throws {
        let fake = try FakePostgres(["decline"])
        defer { fake.stop() }
        let base = "postgresql://bot:hunter2@127.0.0.1:\(fake.port)/atoauth"
        let key = URL(fileURLWithPath: "/nonexistent.key")
        var verified = try PostgresStore.Configuration(url: base + "?sslmode=verify-full")
        verified.connectTimeout = .seconds(30)
        let error = await #expect(throws: PostgresStoreError.tlsFailed) {
            try await PostgresStore.withStore(configuration: verified, keySource: .keyFile(key)) { _ in }
        }
        #expect(error?.description.contains("does not offer TLS") == true, "\(error?.description ?? "")")
        #expect(await fake.nextReport() == "no password")
        // The control: the same fake does get the password when TLS is optional, so the check above can fail.
        let optional = try PostgresStore.Configuration(url: base + "?sslmode=prefer")
        _ = try? await PostgresStore.withStore(configuration: optional, keySource: .keyFile(key)) { _ in }
        #expect(await fake.nextReport() == "password received")
    }

    @Test("verify-full with a certificate for another name says the certificate is for another host")
    func hostMismatch() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("other.crt").path
        let key = directory.appendingPathComponent("other.key").path
        let openssl = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj",
                "/CN=other.example", "-addext", "subjectAltName=DNS:other.example", "-keyout", key, "-out", certificate,
            ]
        )
        try #require(openssl.status == 0, "\(openssl.standardError)")
        let fake = try FakePostgres(["tls", certificate, key])
        defer { fake.stop() }
        let url =
            "postgresql://bot:hunter2@127.0.0.1:\(fake.port)/atoauth?sslmode=verify-full&sslrootcert=\(certificate)"
        let error = await #expect(throws: PostgresStoreError.tlsFailed) {
            try await PostgresStore.withStore(
                configuration: try PostgresStore.Configuration(url: url),
                keySource: .keyFile(URL(fileURLWithPath: "/nonexistent.key"))
            ) { _ in }
        }
        #expect(
            error?.description.contains("the certificate is for another host") == true,
            "\(error?.description ?? "")"
        )
        #expect(await fake.nextReport() == "no password")
    }

    @Test("an sslrootcert that is a FIFO is refused at once instead of blocking the read")
    func fifoRootCertificate() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atoauth-fifo-\(UUID().uuidString)")
            .path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let configuration = try PostgresStore.Configuration(
            url: "postgresql://bot@127.0.0.1:1/atoauth?sslmode=verify-full&sslrootcert=\(path)"
        )
        let error = await #expect(throws: PostgresStoreError.tlsFailed) {
            try await PostgresStore.withStore(
                configuration: configuration,
                keySource: .keyFile(URL(fileURLWithPath: "/nonexistent.key"))
            ) { _ in }
        }
        #expect(error?.description.contains("regular PEM file") == true, "\(error?.description ?? "")")
    }

    @Test("a server message with terminal controls reaches the error without them")
    func serverMessageSanitized() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { _ in }
            try await fixture.sql(
                """
                CREATE FUNCTION atoauth_hostile() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION E'\\x1b]0;owned\\x07\\x1b[2J\\u202Eboom'; END $$;
                CREATE TRIGGER atoauth_hostile BEFORE INSERT OR UPDATE ON atoauth_entries
                FOR EACH ROW EXECUTE FUNCTION atoauth_hostile()
                """
            )
            let error = await #expect(throws: PostgresStoreError.serverError) {
                try await fixture.withStore { store in try await store.save(Data("x".utf8), as: "some/entry") }
            }
            let description = error?.description ?? ""
            #expect(description.contains("boom"), "\(description)")
            #expect(!description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        }
    }
}
