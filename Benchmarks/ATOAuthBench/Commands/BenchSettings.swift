import Foundation

/// How much each scenario does: the full run for BENCHMARKS.md, or the quick one CI runs for crashes only.
struct BenchSettings: Sendable {
    var proofRounds: Int
    var proofBatch: Int
    var overheadRounds: Int
    var overheadBatch: Int
    var rotationCalls: Int
    var rotationWorkers: Int
    var rotationPeriod: TimeInterval
    var stormCalls: Int
    var stormRounds: Int
    var keyFileRounds: Int
    var passphraseRounds: Int
    var writeRounds: Int
    var cliRounds: Int
    var storeAccounts: Int
    var storeStormCalls: Int
    var storeCalls: Int
    var storeRounds: Int
    var gatewayCalls: Int
    var gatewayRounds: Int
    var gatewayLatencyCalls: Int
    var gatewayAccountCounts: [Int]

    /// The full run: a few minutes on an idle 2-core machine, most of them signing in and refreshing 1,000
    /// accounts for the shared-store figures.
    static let full = BenchSettings(
        proofRounds: 25,
        proofBatch: 400,
        overheadRounds: 205,
        overheadBatch: 60,
        rotationCalls: 10_000,
        rotationWorkers: 4,
        rotationPeriod: 1,
        stormCalls: 1000,
        stormRounds: 3,
        keyFileRounds: 20,
        passphraseRounds: 5,
        writeRounds: 30,
        cliRounds: 10,
        storeAccounts: 1000,
        storeStormCalls: 1000,
        storeCalls: 200,
        storeRounds: 3,
        gatewayCalls: 4000,
        gatewayRounds: 6,
        gatewayLatencyCalls: 2000,
        gatewayAccountCounts: [10, 1000]
    )

    /// The quick run for CI: every scenario once, small, with the full 1,000-call refresh storm.
    static let quick = BenchSettings(
        proofRounds: 3,
        proofBatch: 200,
        overheadRounds: 2,
        overheadBatch: 100,
        rotationCalls: 300,
        rotationWorkers: 4,
        rotationPeriod: 1,
        stormCalls: 1000,
        stormRounds: 1,
        keyFileRounds: 3,
        passphraseRounds: 1,
        writeRounds: 3,
        cliRounds: 1,
        storeAccounts: 20,
        storeStormCalls: 200,
        storeCalls: 20,
        storeRounds: 1,
        gatewayCalls: 200,
        gatewayRounds: 2,
        gatewayLatencyCalls: 50,
        gatewayAccountCounts: [10, 50]
    )
}
