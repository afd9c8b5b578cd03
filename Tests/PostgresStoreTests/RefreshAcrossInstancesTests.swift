import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Crypto
import DPoPRequestExecutor
import Foundation
import OAuthSessionManager
import PostgresStore
import Sandbox
import Testing

@Suite("Instances sharing one database refresh each account once")
struct RefreshAcrossInstancesTests {
    /// Access tokens live ten minutes and nonces never rotate, so only the clock decides when a refresh is due.
    static func sandbox(accounts: Int) -> SandboxConfiguration {
        SandboxConfiguration(
            accounts: (0..<accounts).map { SandboxAccount(handle: "user\($0).test") },
            accessTokenLifetime: 600,
            nonceRotationPeriod: 1e9,
            autoApprove: true
        )
    }

    @Test("4 instances × 50 concurrent calls on an expired token: one refresh, no replay, one lock request at a time")
    func oneAccount() async throws {
        try await StoreFixture.with { fixture in
            try await SandboxWorld.with(Self.sandbox(accounts: 1)) { world in
                try await fixture.withStores(4) { stores in
                    try await withTransports(4) { transports in
                        let watches = stores.map { LockWatch($0) }
                        let instances = zip(watches, transports).map { world.accounts(keystore: $0, transport: $1) }
                        let account = try await world.signIn("user0.test", with: instances[0])
                        world.clock.advance(by: 601)
                        let before = world.server.counters
                        try await withThrowingTaskGroup(of: String.self) { group in
                            for instance in instances {
                                for _ in 0..<50 {
                                    group.addTask {
                                        let client = try await instance.client(for: .did(account.did))
                                        return try await client.getSession().did
                                    }
                                }
                            }
                            for try await did in group { #expect(did == account.did.rawValue) }
                        }
                        let after = world.server.counters
                        #expect(after.refreshGrantsSucceeded - before.refreshGrantsSucceeded == 1)
                        #expect(after.refreshTokenReplays == 0)
                        let lock = Session.entryName(did: account.did)
                        for watch in watches { #expect(watch.mostAtOnce(lock) <= 1) }
                        #expect(watches.map { $0.total(lock) }.reduce(0, +) >= 4)
                    }
                }
            }
        }
    }

    @Test("10 accounts at once from 4 instances: one refresh each, no replay")
    func tenAccounts() async throws {
        try await StoreFixture.with { fixture in
            try await SandboxWorld.with(Self.sandbox(accounts: 10)) { world in
                try await fixture.withStores(4) { stores in
                    try await withTransports(4) { transports in
                        let instances = zip(stores, transports).map { world.accounts(keystore: $0, transport: $1) }
                        var dids: [String] = []
                        for index in 0..<10 {
                            dids.append(try await world.signIn("user\(index).test", with: instances[0]).did.rawValue)
                        }
                        world.clock.advance(by: 601)
                        let before = world.server.counters
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for instance in instances {
                                for did in dids {
                                    for _ in 0..<5 {
                                        group.addTask {
                                            let session = try await instance.client(
                                                for: try ATIdentifier(validating: did)
                                            )
                                            .getSession()
                                            #expect(session.did == did)
                                        }
                                    }
                                }
                            }
                            try await group.waitForAll()
                        }
                        let after = world.server.counters
                        #expect(after.refreshGrantsSucceeded - before.refreshGrantsSucceeded == 10)
                        #expect(after.refreshTokenReplays == 0)
                    }
                }
            }
        }
    }

    @Test("after sign-in and refresh, a dump of the database holds no token and no DPoP private key")
    func dumpAfterRefresh() async throws {
        try await StoreFixture.with { fixture in
            try await SandboxWorld.with(Self.sandbox(accounts: 1)) { world in
                try await fixture.withStore { store in
                    let accounts = world.accounts(keystore: store)
                    let account = try await world.signIn("user0.test", with: accounts)
                    let first = try #require(try await accounts.sessions.storedSession(for: account.did))
                    world.clock.advance(by: 601)
                    _ = try await accounts.client(for: .did(account.did)).getSession()
                    let second = try #require(try await accounts.sessions.storedSession(for: account.did))
                    #expect(second.accessToken != first.accessToken)
                    let key = try await accounts.sessions.dpopKey(for: account.did)
                    let dump = try await fixture.server.dump(fixture.database.name)
                    #expect(dump.contains(account.did.rawValue))
                    var secrets = [first.accessToken, second.accessToken]
                    secrets += [first.refreshToken, second.refreshToken].compactMap { $0 }
                    let scalar = key.privateKey.rawRepresentation
                    secrets += [
                        scalar.base64EncodedString(), scalar.map { String(format: "%02x", $0) }.joined(),
                        scalar.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""),
                    ]
                    for secret in secrets { #expect(!dump.contains(secret)) }
                }
            }
        }
    }
}
