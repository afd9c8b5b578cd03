import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Keystore
import Sandbox

/// Round trips per XRPC call against the strict sandbox while it rotates its DPoP nonce every `period` seconds.
///
/// Calls go through ``ATClient`` (as `atoauth` makes them) from `workers` concurrent loops; a counting transport
/// under the client counts every request that reaches the network, nonce retries included. One call before the
/// count learns the first nonce, as any running client already has.
enum NonceRotation {
    /// What the scenario found.
    struct Result: Sendable {
        /// XRPC calls made.
        var calls: Int
        /// Requests sent, retries included.
        var roundTrips: Int
        /// Nonce rotations that happened during the run (elapsed time ÷ period, rounded down).
        var rotations: Int
        /// `use_dpop_nonce` challenges the sandbox sent.
        var challenges: Int
        /// The run's wall time.
        var wall: Double

        /// Round trips per call.
        var perCall: Double { Double(roundTrips) / Double(calls) }
        /// The most the goal allows: one per call, plus one per rotation.
        var allowed: Double { 1 + Double(rotations) / Double(calls) }
    }

    /// Signs in to a new sandbox rotating every `period` seconds and makes `calls` calls.
    static func run(calls: Int, workers: Int, period: TimeInterval) async throws -> Result {
        try await SandboxWorld.with(SandboxConfiguration(nonceRotationPeriod: period, autoApprove: true)) { world in
            let counting = RecordingTransport(world.transport)
            let accounts = world.accounts(keystore: InMemoryKeystore(), transport: counting)
            let account = try await world.signIn(with: accounts)
            let client = try await accounts.client(for: .did(account.did))
            // A running client already knows the server's nonce: one call learns it before the count starts.
            _ = try await client.getSession()
            let primed = counting.count
            world.server.resetCounters()
            let started = Clocks.wall()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<workers {
                    let share = Workload.share(of: calls, among: workers, for: worker)
                    group.addTask {
                        for _ in 0..<share { Sink.consume(try await client.getSession().handle.utf8.count) }
                    }
                }
                try await group.waitForAll()
            }
            let wall = (Clocks.wall() - started).seconds
            return Result(
                calls: calls,
                roundTrips: counting.count - primed,
                rotations: Int(wall / max(period, 1)),
                challenges: world.server.counters.nonceChallengesSent,
                wall: wall
            )
        }
    }
}
