import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Keystore
import OAuthSessionManager
import Testing

@Suite("AccountManager lists the readable accounts when one stored session is unreadable")
struct UnreadableAccountTests {
    @Test("accounts() skips the damaged session, accountListing() names it, remove(_:) deletes it by DID")
    func damagedSession() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let bob = try await world.signIn("bob.test", with: accounts)
            try world.keystore.save(Data("not a session".utf8), as: "session/\(bob.did.rawValue)")

            #expect(try await accounts.accounts().map(\.did) == [alice.did])
            let listing = try await accounts.accountListing()
            #expect(listing.unreadable.map(\.did) == [bob.did])
            #expect(try await accounts.account("alice.test").did == alice.did)
            let removal = try await accounts.remove(.did(bob.did))

            guard case .unreadable(let removed) = removal.removed else {
                Issue.record("bob's damaged session was not removed as unreadable: \(removal.removed)")
                return
            }
            #expect(removed.did == bob.did)
            #expect(try world.keystore.load("session/\(bob.did.rawValue)") == nil)
            #expect(try world.keystore.load("dpop-key/\(bob.did.rawValue)") == nil)
            #expect(try await accounts.accountListing().unreadable.isEmpty)
            // bob was the active account: alice, the only one left, is active now.
            #expect(try await accounts.activeAccount()?.did == alice.did)
        }
    }
}
