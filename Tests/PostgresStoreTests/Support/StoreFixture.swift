import ATOAuthTesting
import Foundation
import Keystore
import PostgresStore

/// A database of its own on the shared throwaway server, a key file in a temporary directory, and stores over them.
struct StoreFixture: Sendable {
    let server: ThrowawayPostgres
    let database: ThrowawayPostgres.Database
    let directory: URL

    var keyFile: URL { directory.appendingPathComponent("store.key") }

    /// Runs `body` with a new database on the shared server (or on `server`) and a temporary directory, then drops
    /// the database and removes the directory, also when `body` throws.
    static func with<T>(
        server: ThrowawayPostgres? = nil,
        _ body: (StoreFixture) async throws -> T
    ) async throws -> T {
        let server = if let server { server } else { try await ThrowawayPostgres.shared() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-pg-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await server.withDatabase { database in
            try await body(StoreFixture(server: server, database: database, directory: directory))
        }
    }

    /// The configuration of this database through the socket, with patient time limits.
    ///
    /// The tests share two cores with the server and with each other; a test of a time limit sets its own.
    func configuration(url: String? = nil) throws -> PostgresStore.Configuration {
        var configuration = try PostgresStore.Configuration(url: url ?? database.url)
        configuration.operationTimeout = .seconds(60)
        configuration.lockTimeout = .seconds(60)
        configuration.connectTimeout = .seconds(30)
        return configuration
    }

    /// Opens the store with the fixture's key file and runs `body`.
    func withStore<T>(
        _ configuration: PostgresStore.Configuration? = nil,
        keySource: EncryptedFileKeystore.KeySource? = nil,
        _ body: (PostgresStore) async throws -> T
    ) async throws -> T {
        try await PostgresStore.withStore(
            configuration: try configuration ?? self.configuration(),
            keySource: keySource ?? .keyFile(keyFile),
            body
        )
    }

    /// Runs SQL on this database as the superuser.
    @discardableResult
    func sql(_ statement: String) async throws -> String {
        try await server.execute(statement, database: database.name)
    }
}
