import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Keystore
import Sandbox

/// 1,000 concurrent XRPC calls on an expired access token against the same calls on a fresh one.
///
/// The sandbox and the client share a clock; each round makes the calls on a fresh token, moves the clock past
/// the token's lifetime, and makes them again. The sandbox counts the refresh grants of each expired run: exactly
/// one is right (one refresh shared by every caller).
enum RefreshStorm {
    /// One round's figures.
    struct Round: Sendable {
        /// Wall time of the calls on a fresh token.
        var fresh: Double
        /// Wall time of the calls on an expired token.
        var expired: Double
        /// Refresh grants the sandbox issued during the expired run.
        var refreshes: Int
    }

    /// How long the sandbox's access tokens live here; the clock moves one second past it.
    static let tokenLifetime: TimeInterval = 600

    /// Signs in to a new sandbox and runs `rounds` rounds of `calls` concurrent calls.
    static func run(calls: Int, rounds: Int) async throws -> [Round] {
        // Nonces never rotate here, so no nonce challenge blurs the refresh.
        let configuration = SandboxConfiguration(
            accessTokenLifetime: tokenLifetime,
            nonceRotationPeriod: 1e9,
            autoApprove: true
        )
        return try await SandboxWorld.with(configuration) { world in
            let accounts = world.accounts(keystore: InMemoryKeystore())
            let account = try await world.signIn(with: accounts)
            let client = try await accounts.client(for: .did(account.did))
            _ = try await client.getSession()  // Learns the PDS nonce and opens a connection.
            var results: [Round] = []
            for _ in 0..<rounds {
                let fresh = try await storm(client, calls: calls)
                world.clock.advance(by: tokenLifetime + 1)
                let before = world.server.counters.refreshGrantsSucceeded
                let expired = try await storm(client, calls: calls)
                let refreshes = world.server.counters.refreshGrantsSucceeded - before
                results.append(Round(fresh: fresh, expired: expired, refreshes: refreshes))
            }
            return results
        }
    }

    /// Makes `calls` calls at once and returns the wall time until the last one finished.
    private static func storm(_ client: ATClient, calls: Int) async throws -> Double {
        let started = Clocks.wall()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<calls {
                group.addTask { Sink.consume(try await client.getSession().handle.utf8.count) }
            }
            try await group.waitForAll()
        }
        return (Clocks.wall() - started).seconds
    }
}
