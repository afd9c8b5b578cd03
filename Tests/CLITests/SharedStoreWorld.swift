import ATOAuthTesting
import Foundation
import Keystore
import PostgresStore
import Testing

/// A ``CLIWorld`` whose accounts live in a database of the throwaway PostgreSQL server, used from several
/// "machines": each its own `--home` and its own copy of the key file, all with the same `--store`.
struct SharedStoreWorld: Sendable {
    let world: CLIWorld
    let server: ThrowawayPostgres
    let database: ThrowawayPostgres.Database

    /// Starts the sandbox with `sandboxArguments` and a new database, runs `body`, and cleans up: the world's folder
    /// goes, and so does the database.
    static func with<T>(
        _ sandboxArguments: [String] = [],
        _ body: (SharedStoreWorld) async throws -> T
    ) async throws -> T {
        let server = try await ThrowawayPostgres.shared()
        return try await server.withDatabase { database in
            try await CLIWorld.with(sandboxArguments) { world in
                try await body(SharedStoreWorld(world: world, server: server, database: database))
            }
        }
    }

    /// The directory of machine `index`: its home and its copy of the key file.
    func machineDirectory(_ index: Int) -> URL {
        world.directory.appendingPathComponent("machine-\(index)", isDirectory: true)
    }

    /// The environment of machine `index`; machine 0 creates the key file, ``copyKey(to:)`` gives it to others.
    func machine(_ index: Int) -> [String: String] {
        var environment = world.environment
        environment["ATOAUTH_HOME"] = machineDirectory(index).appendingPathComponent("home").path
        environment["ATOAUTH_KEY_FILE"] = machineDirectory(index).appendingPathComponent("store.key").path
        environment["ATOAUTH_STORE"] = database.url
        return environment
    }

    /// Copies machine 0's key file to machines `1..<count`, as an operator would (mode 0600).
    func copyKey(to count: Int) throws {
        let key = machineDirectory(0).appendingPathComponent("store.key")
        for index in 1..<count {
            let directory = machineDirectory(index)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let copy = directory.appendingPathComponent("store.key")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: key, to: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.path)
        }
    }

    /// Runs `atoauth arguments…` on machine `index`.
    func atoauth(
        on index: Int,
        _ arguments: String...,
        extra: [String: String] = [:]
    ) async throws
        -> CLIProcess.Result
    {
        try await CLIProcess.run(arguments, environment: machine(index).merging(extra) { $1 })
    }

    /// Signs `handle` in from machine 0, expecting success.
    func signIn(_ handle: String) async throws {
        let result = try await atoauth(on: 0, "accounts", "add", handle)
        #expect(result.status == 0, "accounts add \(handle) failed: \(result.stderr)")
    }

    /// Starts `count` processes per machine for machines `0..<machines`, all at once, and waits for them all.
    func concurrently(
        machines: Int,
        count: Int,
        _ arguments: (_ machine: Int, _ index: Int) -> [String]
    ) async throws -> [CLIProcess.Result] {
        var running: [CLIProcess.Running] = []
        for machine in 0..<machines {
            for index in 0..<count {
                running.append(try CLIProcess.start(arguments(machine, index), environment: self.machine(machine)))
                // Starting 200 processes takes seconds; the threads the other tests share are free between them.
                await Task.yield()
            }
        }
        var results: [CLIProcess.Result] = []
        for process in running { results.append(try await process.finish(timeout: .seconds(300))) }
        return results
    }

    /// Every entry of the database, decrypted with machine 0's key file.
    func entries() async throws -> [String: Data] {
        let key = machineDirectory(0).appendingPathComponent("store.key")
        return try await PostgresStore.withStore(
            configuration: try PostgresStore.Configuration(url: database.url),
            keySource: .keyFile(key)
        ) { store in
            var entries: [String: Data] = [:]
            for name in try await store.names() { entries[name] = try await store.load(name) }
            return entries
        }
    }

    /// The stored session of `did`, decrypted, as JSON.
    func session(_ did: String) async throws -> [String: Any] {
        let data = try #require(try await entries()["session/\(did)"])
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Sends SQL to the database as its owner.
    @discardableResult
    func sql(_ statement: String) async throws -> String {
        try await server.execute(statement, database: database.name)
    }
}
