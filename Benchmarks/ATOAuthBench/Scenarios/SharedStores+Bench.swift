import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Sandbox

extension SharedStores {
    /// The instances of both kinds over one sandbox, and the measurements made with them.
    struct Bench: Sendable {
        let world: SandboxWorld
        /// Four account managers per kind, each over its own store object.
        let instances: [Kind: [AccountManager]]
        let stormCalls: Int
        let perCallCalls: Int

        /// Signs the accounts `user<n>.test` for `n` in `range` in to every kind, eight at a time.
        func signIn(_ range: Range<Int>) async throws {
            for kind in Kind.allCases {
                guard let manager = instances[kind]?.first else { continue }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    var pending = range.makeIterator()
                    for _ in 0..<8 {
                        guard let index = pending.next() else { break }
                        group.addTask { _ = try await world.signIn("user\(index).test", with: manager) }
                    }
                    while try await group.next() != nil {
                        guard let index = pending.next() else { continue }
                        group.addTask { _ = try await world.signIn("user\(index).test", with: manager) }
                    }
                }
            }
        }

        /// Runs `rounds` rounds of every setup for both kinds, alternating which kind goes first.
        func measure(_ setups: [Setup], rounds: Int) async throws -> [Kind: [Setup: [Sample]]] {
            var samples: [Kind: [Setup: [Sample]]] = [:]
            for round in 0..<rounds {
                let kinds = round.isMultiple(of: 2) ? Kind.allCases : Kind.allCases.reversed()
                for setup in setups {
                    for kind in kinds {
                        samples[kind, default: [:]][setup, default: []].append(try await sample(kind, setup))
                    }
                }
            }
            return samples
        }

        /// Expires every token, times the storm, then times calls on the fresh tokens the storm left, once every
        /// instance has called each account.
        private func sample(_ kind: Kind, _ setup: Setup) async throws -> Sample {
            let managers = Array((instances[kind] ?? []).prefix(setup.instances))
            let dids = (0..<setup.accounts).map { world.server.configuration.accounts[$0].did }
            var clients: [[ATClient]] = []
            for manager in managers {
                var row: [ATClient] = []
                for did in dids { row.append(try await manager.client(for: try ATIdentifier(validating: did))) }
                clients.append(row)
            }
            world.clock.advance(by: tokenLifetime + 1)
            let before = world.server.counters.refreshGrantsSucceeded
            let storm = try await timed(clients, calls: max(stormCalls / setup.instances, setup.accounts), at: .once)
            let refreshes = world.server.counters.refreshGrantsSucceeded - before
            // The first call after a refresh reads the session again; the per-call figure is the steady state.
            _ = try await timed(clients, calls: setup.accounts, at: .oneAfterAnother)
            let perCall = try await timed(clients, calls: perCallCalls, at: .oneAfterAnother)
            return Sample(perCall: perCall / Double(perCallCalls), storm: storm, refreshes: refreshes)
        }

        /// How an instance makes its calls.
        enum Pace {
            /// All at once, as a storm.
            case once
            /// Each after the previous one answered.
            case oneAfterAnother
        }

        /// Every instance makes `calls` calls at the same time as the others, spread over its clients (accounts)
        /// starting at its own offset; returns the wall time until the last call finished.
        private func timed(_ clients: [[ATClient]], calls: Int, at pace: Pace) async throws -> Double {
            let started = Clocks.wall()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (instance, row) in clients.enumerated() {
                    switch pace {
                    case .once:
                        for number in 0..<calls { group.addTask { try await Self.call(row, instance + number) } }
                    case .oneAfterAnother:
                        group.addTask { for number in 0..<calls { try await Self.call(row, instance + number) } }
                    }
                }
                try await group.waitForAll()
            }
            return (Clocks.wall() - started).seconds
        }

        private static func call(_ clients: [ATClient], _ number: Int) async throws {
            Sink.consume(try await clients[number % clients.count].getSession().handle.utf8.count)
        }
    }
}
