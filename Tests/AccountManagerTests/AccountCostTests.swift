import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Keystore
import OAuthSessionManager
import Sandbox
import Testing

/// What a command acting as one account decrypts: that account's entries, whatever the number of accounts.
///
/// A new manager stands for a new process (each CLI command is one).
@Suite("A command acting as one account reads that account's entries only")
struct AccountCostTests {
    static let handles = (0..<8).map { "user\($0).test" }

    /// Signs `handles` in (the last one is active) and gives `body` the world and the DIDs by handle.
    static func withAccounts(_ body: (SandboxWorld, [String: DID]) async throws -> Void) async throws {
        let configuration = SandboxConfiguration(
            accounts: handles.map { SandboxAccount(handle: $0) },
            autoApprove: true
        )
        try await SandboxWorld.with(configuration) { world in
            var dids: [String: DID] = [:]
            for handle in handles {
                dids[handle] = try await world.signIn(handle, with: world.accounts()).did
            }
            try await body(world, dids)
        }
    }

    /// The entries of one account's session.
    static func entries(of did: DID) -> Set<String> {
        [Session.entryName(did: did), Session.keyEntryName(did: did)]
    }

    @Test("the active account: the active entry, its session and its DPoP key, each decrypted once")
    func activeAccount() async throws {
        try await Self.withAccounts { world, dids in
            let did = try #require(dids[Self.handles.last!])
            let store = CountingKeystore(world.keystore)
            let accounts = world.accounts(keystore: store)
            let account = try await accounts.account()
            let client = try await accounts.client(for: .did(account.did))
            #expect(try await client.getSession().did == did.rawValue)
            let loaded = store.names(loadedSince: 0)
            #expect(loaded.count == Set(loaded).count, "each entry once: \(loaded)")
            #expect(Set(loaded) == Self.entries(of: did).union(["accounts/active"]))
        }
    }

    @Test("an account named by DID or by handle: that account's session and key, and the handle index")
    func namedAccount() async throws {
        try await Self.withAccounts { world, dids in
            let did = try #require(dids["user3.test"])
            for identifier: ATIdentifier in [.did(did), "user3.test"] {
                let store = CountingKeystore(world.keystore)
                let accounts = world.accounts(keystore: store)
                let account = try await accounts.account(identifier)
                #expect(account.did == did && !account.active)
                #expect(try await accounts.client(for: identifier).getSession().did == did.rawValue)
                let loaded = store.names(loadedSince: 0)
                #expect(loaded.count == Set(loaded).count, "each entry once: \(loaded)")
                let allowed = Self.entries(of: did).union(["accounts/active", "accounts/handles"])
                #expect(Set(loaded).isSubset(of: allowed), "\(identifier): \(loaded)")
                #expect(Set(loaded).isSuperset(of: Self.entries(of: did)))
            }
        }
    }

    @Test("a handle the index lacks or gets wrong is found by a listing, which writes the index again")
    func staleIndex() async throws {
        try await Self.withAccounts { world, dids in
            let user2 = try #require(dids["user2.test"])
            let user5 = try #require(dids["user5.test"])
            try world.keystore.delete("accounts/handles")
            let first = CountingKeystore(world.keystore)
            #expect(try await world.accounts(keystore: first).account("user2.test").did == user2)
            let sessionsRead = first.names(loadedSince: 0).filter { $0.hasPrefix("session/") }
            #expect(Set(sessionsRead).count == Self.handles.count, "no index: every session is read")

            let second = CountingKeystore(world.keystore)
            #expect(try await world.accounts(keystore: second).account("user2.test").did == user2)
            #expect(second.names(loadedSince: 0).filter { $0.hasPrefix("session/") } == [Session.entryName(did: user2)])

            // An index that names another account's DID for the handle never routes to that account.
            try world.keystore.save(Data(#"{"user2.test":"\#(user5.rawValue)"}"#.utf8), as: "accounts/handles")
            #expect(try await world.accounts().account("user2.test").did == user2)
            #expect(try await world.accounts().client(for: "user2.test").getSession().did == user2.rawValue)
        }
    }

    @Test("listing the accounts decrypts each session once; removing one takes its handle out of the index")
    func listing() async throws {
        try await Self.withAccounts { world, dids in
            let store = CountingKeystore(world.keystore)
            let accounts = world.accounts(keystore: store)
            #expect(try await accounts.accounts().count == Self.handles.count)
            let sessionsRead = store.names(loadedSince: 0).filter { $0.hasPrefix("session/") }
            #expect(sessionsRead.count == Self.handles.count && Set(sessionsRead).count == Self.handles.count)

            let removed = try #require(dids["user4.test"])
            _ = try await world.accounts().remove(.did(removed))
            let index = try #require(try world.keystore.load("accounts/handles"))
            #expect(!String(decoding: index, as: UTF8.self).contains(removed.rawValue))
            await #expect(throws: AccountError.self) { try await world.accounts().account("user4.test") }
        }
    }
}
