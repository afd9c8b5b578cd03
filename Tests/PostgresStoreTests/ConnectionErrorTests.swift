import ATOAuthTesting
import Foundation
import PostgresStore
import Testing

@Suite("A database that cannot be used is reported as such: down, wrong password, missing, no privilege, TLS")
struct ConnectionErrorTests {
    @Test("nothing listening on the port: unreachable, connection refused, and the password is not shown")
    func serverDown() async throws {
        try await StoreFixture.with { fixture in
            let closed = try ClosedPort()
            let url = "postgresql://atoauth:hunter2@127.0.0.1:\(closed.port)/db?sslmode=disable"
            let error = await #expect(throws: PostgresStoreError.unreachable) {
                try await fixture.withStore(try fixture.configuration(url: url)) { _ in }
            }
            #expect(error?.description.contains("connection refused") == true, "\(error?.description ?? "")")
            #expect(error?.description.contains("127.0.0.1:\(closed.port)") == true)
            #expect(error?.description.contains("hunter2") == false)
        }
    }

    @Test("no socket at the path: unreachable, and it says so")
    func noSocket() async throws {
        try await StoreFixture.with { fixture in
            let url = "postgresql://atoauth@/db?host=\(fixture.directory.path)"
            let error = await #expect(throws: PostgresStoreError.unreachable) {
                try await fixture.withStore(try fixture.configuration(url: url)) { _ in }
            }
            #expect(error?.description.contains("no server socket") == true, "\(error?.description ?? "")")
        }
    }

    @Test("a wrong password or none over TCP: the server refused the sign-in, the password is not shown")
    func wrongPassword() async throws {
        try await StoreFixture.with { fixture in
            let server = fixture.server
            let wrong = "postgresql://atoauth:hunter2@127.0.0.1:\(server.port)/\(fixture.database.name)?sslmode=disable"
            let refused = await #expect(throws: PostgresStoreError.authenticationFailed) {
                try await fixture.withStore(try fixture.configuration(url: wrong)) { _ in }
            }
            #expect(refused?.description.contains("password") == true, "\(refused?.description ?? "")")
            #expect(refused?.description.contains("hunter2") == false)
            let none = "postgresql://atoauth@127.0.0.1:\(server.port)/\(fixture.database.name)?sslmode=disable"
            await #expect(throws: PostgresStoreError.authenticationFailed) {
                try await fixture.withStore(try fixture.configuration(url: none)) { _ in }
            }
            try await fixture.withStore(try fixture.configuration(url: fixture.database.tcpURL)) { store in
                try await store.save(Data("ok".utf8), as: "entry")
            }
        }
    }

    @Test("a database that does not exist: it says to create it")
    func missingDatabase() async throws {
        try await StoreFixture.with { fixture in
            let url = fixture.server.database("atoauth_never_created").url
            let error = await #expect(throws: PostgresStoreError.databaseMissing) {
                try await fixture.withStore(try fixture.configuration(url: url)) { _ in }
            }
            #expect(error?.description.contains("atoauth_never_created") == true)
            #expect(error?.description.contains("createdb") == true)
        }
    }

    @Test("a user that may not create the tables is told which privilege is missing")
    func noPrivilege() async throws {
        try await StoreFixture.with { fixture in
            let role = "reader_" + UUID().uuidString.prefix(8).lowercased()
            try await fixture.sql("CREATE ROLE \(role) LOGIN")
            let url = fixture.database.url.replacingOccurrences(of: "//atoauth@", with: "//\(role)@")
            let error = await #expect(throws: PostgresStoreError.permissionDenied) {
                try await fixture.withStore(try fixture.configuration(url: url)) { _ in }
            }
            #expect(error?.description.contains("Grant") == true, "\(error?.description ?? "")")
        }
    }

    @Test("sslmode=require uses TLS; verify-full refuses an untrusted certificate and accepts it with sslrootcert")
    func tls() async throws {
        try await StoreFixture.with { fixture in
            let server = fixture.server
            let base = "postgresql://atoauth:\(server.password)@localhost:\(server.port)/\(fixture.database.name)"
            var required = try fixture.configuration(url: base + "?sslmode=require")
            required.applicationName = "tls-require-test"
            try await fixture.withStore(required) { store in
                try await store.save(Data("x".utf8), as: "entry")
                let encrypted = try await fixture.sql(
                    "SELECT bool_and(ssl) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) "
                        + "WHERE application_name = 'tls-require-test'"
                )
                #expect(encrypted == "t")
            }
            let untrusted = await #expect(throws: PostgresStoreError.tlsFailed) {
                try await fixture.withStore(try fixture.configuration(url: base + "?sslmode=verify-full")) { _ in }
            }
            #expect(untrusted?.description.contains("sslrootcert") == true)
            let trusted = base + "?sslmode=verify-full&sslrootcert=\(server.certificate)"
            let read = try await fixture.withStore(try fixture.configuration(url: trusted)) { store in
                try await store.load("entry")
            }
            #expect(read == Data("x".utf8))
        }
    }
}
