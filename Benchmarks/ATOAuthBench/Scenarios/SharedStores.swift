import ATOAuthTesting
import Foundation
import Keystore
import PostgresStore
import Sandbox

/// The PostgreSQL store beside the encrypted file store, measured in the same run: the time of a call on a fresh
/// token and of a refresh storm, with 1 and 4 instances and with 1 and many accounts.
///
/// An instance is a store object with its own account manager (its own in-process refresh actor, connections and
/// locks), as a process on another machine has: four `PostgresStore`s on one database, or four
/// `EncryptedFileKeystore`s on one directory. The strict sandbox runs in this process and shares a clock with every
/// instance; tokens live 600 s and nonces never rotate, so only the clock decides when a refresh is due.
enum SharedStores {
    /// The store under measurement.
    enum Kind: String, CaseIterable, Sendable {
        case files
        case postgres
    }

    /// How many instances call, over how many accounts.
    struct Setup: Hashable, Sendable {
        var instances: Int
        var accounts: Int
    }

    /// One round's figures for one kind and setup.
    struct Sample: Sendable {
        /// Wall time of one call on a fresh token, as one caller sees it while every instance calls.
        var perCall: Double
        /// Wall time of the storm on expired tokens.
        var storm: Double
        /// Refresh grants the sandbox issued during the storm.
        var refreshes: Int
    }

    /// Every round's samples.
    struct Result: Sendable {
        var samples: [Kind: [Setup: [Sample]]]
        /// The setups in report order.
        var setups: [Setup]
        /// Sequential calls per instance in the per-call run.
        var perCallCalls: Int

        /// The median of a figure over the rounds.
        func median(_ kind: Kind, _ setup: Setup, _ figure: KeyPath<Sample, Double>) -> Double {
            Samples.median(samples[kind]?[setup]?.map { $0[keyPath: figure] } ?? [])
        }

        /// The median over the rounds of the ratio of two kinds' or setups' figures, each round's pair measured
        /// back to back.
        func ratio(
            _ numerator: (Kind, Setup),
            over denominator: (Kind, Setup),
            _ figure: KeyPath<Sample, Double>
        ) -> Double {
            let top = samples[numerator.0]?[numerator.1] ?? []
            let bottom = samples[denominator.0]?[denominator.1] ?? []
            return Samples.median(zip(top, bottom).map { $0[keyPath: figure] / $1[keyPath: figure] })
        }

        /// Every storm's refresh count divided by the accounts it should have refreshed once each.
        var refreshesPerAccount: [Double] {
            samples.values.flatMap { bySetup in
                bySetup.flatMap { setup, samples in samples.map { Double($0.refreshes) / Double(setup.accounts) } }
            }
        }
    }

    /// Calls a storm makes at least, per store kind and setup.
    static let tokenLifetime: TimeInterval = 600

    /// Runs the measurements against a throwaway PostgreSQL server and a sandbox, both started here.
    static func run(accounts: Int, stormCalls: Int, perCallCalls: Int, rounds: Int) async throws -> Result {
        let server = try await ThrowawayPostgres.start()
        do {
            let result = try await run(server, accounts, stormCalls, perCallCalls, rounds)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    // swift-format-ignore: ValidateDocumentationComments
    private static func run(
        _ server: ThrowawayPostgres,
        _ accounts: Int,
        _ stormCalls: Int,
        _ perCallCalls: Int,
        _ rounds: Int
    ) async throws -> Result {
        let sandbox = SandboxConfiguration(
            accounts: (0..<accounts).map { SandboxAccount(handle: "user\($0).test") },
            accessTokenLifetime: tokenLifetime,
            nonceRotationPeriod: 1e9,
            autoApprove: true
        )
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-bench-stores-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keySource = EncryptedFileKeystore.KeySource.keyFile(directory.appendingPathComponent("store.key"))
        let database = try await server.createDatabase()
        var configuration = try PostgresStore.Configuration(url: database.url)
        configuration.operationTimeout = .seconds(60)
        configuration.lockTimeout = .seconds(120)
        return try await SandboxWorld.with(sandbox) { world in
            try await withPostgresStores(4, configuration, keySource) { postgres in
                let files = try (0..<4).map { _ in
                    try EncryptedFileKeystore(
                        directory: directory.appendingPathComponent("files"),
                        keySource: keySource,
                        lockTimeout: configuration.lockTimeout
                    )
                }
                let bench = Bench(
                    world: world,
                    instances: [
                        .files: files.map { world.accounts(keystore: $0) },
                        .postgres: postgres.map { world.accounts(keystore: $0) },
                    ],
                    stormCalls: stormCalls,
                    perCallCalls: perCallCalls
                )
                try await bench.signIn(0..<1)
                var samples = try await bench.measure(
                    [Setup(instances: 1, accounts: 1), Setup(instances: 4, accounts: 1)],
                    rounds: rounds
                )
                try await bench.signIn(1..<accounts)
                let many = [Setup(instances: 1, accounts: accounts), Setup(instances: 4, accounts: accounts)]
                for (kind, bySetup) in try await bench.measure(many, rounds: rounds) {
                    samples[kind, default: [:]].merge(bySetup) { $1 }
                }
                return Result(
                    samples: samples,
                    setups: [
                        Setup(instances: 1, accounts: 1), Setup(instances: 4, accounts: 1),
                        Setup(instances: 1, accounts: accounts), Setup(instances: 4, accounts: accounts),
                    ],
                    perCallCalls: perCallCalls
                )
            }
        }
    }

    /// Opens `count` stores on one database, each with its own pool, and runs `body` with them.
    private static func withPostgresStores<T>(
        _ count: Int,
        _ configuration: PostgresStore.Configuration,
        _ keySource: EncryptedFileKeystore.KeySource,
        _ opened: [PostgresStore] = [],
        _ body: ([PostgresStore]) async throws -> T
    ) async throws -> T {
        guard opened.count < count else { return try await body(opened) }
        return try await PostgresStore.withStore(configuration: configuration, keySource: keySource) { store in
            try await withPostgresStores(count, configuration, keySource, opened + [store], body)
        }
    }
}
