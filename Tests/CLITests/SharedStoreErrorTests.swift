import ATOAuthTesting
import Foundation
import Testing

@Suite("atoauth --store: a database that cannot be used says why and what to do, and shows no password", .serialized)
struct SharedStoreErrorTests {
    /// Expects exit 1 with one or two sentences on stderr that contain `expected` and never `password`.
    func expectFailure(
        _ result: CLIProcess.Result,
        _ expected: [String],
        hiding password: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        for text in expected {
            #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(!result.stderr.contains(password), sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count <= 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("a wrong password: the server refused the sign-in; --json gives the same message as an object")
    func wrongPassword() async throws {
        try await SharedStoreWorld.with { shared in
            let url =
                "postgresql://atoauth:hunter2@127.0.0.1:\(shared.server.port)/\(shared.database.name)?sslmode=disable"
            let text = try await shared.atoauth(on: 0, "accounts", "list", extra: ["ATOAUTH_STORE": url])
            expectFailure(text, ["refused the sign-in", "PGPASSWORD"], hiding: "hunter2")
            let json = try await shared.atoauth(on: 0, "accounts", "list", "--json", extra: ["ATOAUTH_STORE": url])
            #expect(json.status == 1)
            let object = try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any]
            #expect(object?["error"] as? String == "failed")
            #expect((object?["message"] as? String)?.contains("refused the sign-in") == true)
            #expect(!json.stderr.contains("hunter2"))
            let fromEnvironment = try await shared.atoauth(
                on: 0,
                "accounts",
                "list",
                extra: [
                    "ATOAUTH_STORE": "postgresql://atoauth@127.0.0.1:\(shared.server.port)/\(shared.database.name)"
                        + "?sslmode=disable",
                    "PGPASSWORD": "hunter3",
                ]
            )
            expectFailure(fromEnvironment, ["refused the sign-in"], hiding: "hunter3")
        }
    }

    @Test("a password in --store is warned about (ps shows it); from a 0600 password file it is used in silence")
    func passwordOnTheCommandLine() async throws {
        try await SharedStoreWorld.with { shared in
            let server = shared.server
            let base = "postgresql://atoauth@127.0.0.1:\(server.port)/\(shared.database.name)?sslmode=disable"
            let inURL = base.replacingOccurrences(of: "atoauth@", with: "atoauth:\(server.password)@")
            let warned = try await shared.atoauth(on: 0, "accounts", "list", "--store", inURL)
            #expect(warned.status == 0, "\(warned.stderr)")
            #expect(warned.stderr.contains("can be read by other users"), "\(warned.stderr)")
            #expect(warned.stderr.contains("PGPASSWORD") && warned.stderr.contains("~/.pgpass"))
            #expect(!warned.stderr.contains(server.password))
            let fromVariable = try await shared.atoauth(on: 0, "accounts", "list", extra: ["ATOAUTH_STORE": inURL])
            #expect(fromVariable.status == 0 && !fromVariable.stderr.contains("other users"), "\(fromVariable.stderr)")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("pgpass")
            try Data("127.0.0.1:\(server.port):*:atoauth:\(server.password)\n".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            let fromFile = try await shared.atoauth(
                on: 0,
                "accounts",
                "list",
                "--store",
                base + "&passfile=\(file.path)"
            )
            #expect(fromFile.status == 0 && !fromFile.stderr.contains("other users"), "\(fromFile.stderr)")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let readable = try await shared.atoauth(
                on: 0,
                "accounts",
                "list",
                extra: ["ATOAUTH_STORE": base, "PGPASSFILE": file.path]
            )
            #expect(readable.status == 2, "\(readable.stderr)")
            #expect(readable.stderr.contains("chmod 600"), "\(readable.stderr)")
        }
    }

    @Test("tables of a newer atoauth: it says to upgrade, and the tables are left as they are")
    func newerSchema() async throws {
        try await SharedStoreWorld.with { shared in
            try await shared.signIn("alice.test")
            try await shared.sql("UPDATE atoauth_schema SET version = 9")
            let result = try await shared.atoauth(on: 0, "whoami")
            expectFailure(result, ["schema version 9", "Upgrade atoauth"], hiding: shared.server.password)
            #expect(try await shared.sql("SELECT version FROM atoauth_schema") == "9")
            #expect(try await shared.sql("SELECT count(*) FROM atoauth_sessions") == "1")
        }
    }

    @Test("a database that does not exist, or a certificate the URL does not trust: what to fix in the URL")
    func databaseAndTLS() async throws {
        try await SharedStoreWorld.with { shared in
            let server = shared.server
            func list(store: String) async throws -> CLIProcess.Result {
                try await shared.atoauth(on: 0, "accounts", "list", extra: ["ATOAUTH_STORE": store])
            }
            let missing = try await list(store: server.database("atoauth_never_created").url)
            expectFailure(missing, ["atoauth_never_created", "does not exist", "createdb"], hiding: server.password)
            let verified =
                "postgresql://atoauth:\(server.password)@localhost:\(server.port)/\(shared.database.name)"
                + "?sslmode=verify-full"
            let untrusted = try await list(store: verified)
            expectFailure(untrusted, ["TLS", "sslrootcert"], hiding: server.password)
            let trusted = try await list(store: verified + "&sslrootcert=\(server.certificate)")
            #expect(trusted.status == 0, "\(trusted.stderr)")
        }
    }
}
