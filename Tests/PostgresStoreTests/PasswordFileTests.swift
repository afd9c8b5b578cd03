import Foundation
import PostgresStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("A libpq password file gives the password, and one others may read is refused")
struct PasswordFileTests {
    private func file(_ text: String, mode: mode_t = 0o600) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    @Test("the first matching line wins; * matches anything; \\: and \\\\ are unescaped; localhost matches a socket")
    func matching() throws {
        let path = try file(
            """
            # comment:*:*:*:nope
            db.example:5432:other:bot:wrong
            db.example:5432:atoauth:bot:pa\\:ss\\\\word
            *:*:*:bot:fallback
            localhost:5433:*:sock:socket-secret
            """
        )
        defer { unlink(path) }
        let exact = try PostgresStore.Configuration(url: "postgresql://bot@db.example/atoauth")
        #expect(try PostgresStore.PasswordFile.password(for: exact, path: path) == "pa:ss\\word")
        let other = try PostgresStore.Configuration(url: "postgresql://bot@elsewhere:6000/x")
        #expect(try PostgresStore.PasswordFile.password(for: other, path: path) == "fallback")
        let socket = try PostgresStore.Configuration(url: "postgresql://sock@%2Frun%2Fpg:5433/x")
        #expect(try PostgresStore.PasswordFile.password(for: socket, path: path) == "socket-secret")
        let nobody = try PostgresStore.Configuration(url: "postgresql://nobody@db.example/x")
        #expect(try PostgresStore.PasswordFile.password(for: nobody, path: path) == nil)
        let empty = try file("")
        defer { unlink(empty) }
        #expect(try PostgresStore.PasswordFile.password(for: exact, path: empty) == nil, "an empty file holds none")
    }

    @Test("a file others may read, a FIFO or a missing file is a usage error that shows no password")
    func refused() throws {
        let open = try file("*:*:*:*:hunter2", mode: 0o644)
        defer { unlink(open) }
        let configuration = try PostgresStore.Configuration(url: "postgresql://bot@db.example/atoauth")
        let readable = #expect(throws: PostgresStoreError.invalidURL) {
            try PostgresStore.PasswordFile.password(for: configuration, path: open)
        }
        #expect(readable?.description.contains("chmod 600") == true, "\(readable?.description ?? "")")
        #expect(readable?.description.contains("hunter2") == false)
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let notRegular = #expect(throws: PostgresStoreError.invalidURL) {
            try PostgresStore.PasswordFile.password(for: configuration, path: fifo)
        }
        #expect(notRegular?.description.contains("not a regular file") == true)
        #expect(throws: PostgresStoreError.invalidURL) {
            try PostgresStore.PasswordFile.password(for: configuration, path: "/nonexistent/.pgpass")
        }
    }
}
