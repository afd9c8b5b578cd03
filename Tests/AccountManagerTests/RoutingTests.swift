import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Failures
import Foundation
import HTTPTransport
import Keystore
import Sandbox
import Testing

@Suite("AccountManager routes each request to an account")
struct RoutingTests {
    @Test("a routed client uses the explicit account, else the repo's account, else the active one")
    func routing() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let bob = try await world.signIn("bob.test", with: accounts)
            #expect(try await accounts.activeAccount()?.did == bob.did)
            let client = accounts.client()

            let active = try await client.getSession()
            #expect(active.did == bob.did.rawValue)
            let explicit = try await client.query(NSIDs.getSession, as: "alice.test").decode(GetSessionAnswer.self)
            #expect(explicit.did == alice.did.rawValue)
            // getSession ignores a repo parameter, but routing does not: the call goes out as alice.
            let byRepo = try await client.query(NSIDs.getSession, parameters: [("repo", "alice.test")])
                .decode(GetSessionAnswer.self)
            #expect(byRepo.did == alice.did.rawValue)
            let byBody = try await client.procedure(
                NSIDs.createRecord,
                input: Data(
                    #"{"repo":"\#(alice.did.rawValue)","collection":"app.bsky.feed.post","record":{"text":"hi"}}"#.utf8
                )
            )
            #expect(String(decoding: byBody.body, as: UTF8.self).contains(alice.did.rawValue))
            // A repo that is not signed in here goes out as the active account.
            let other = try await client.query(NSIDs.getSession, parameters: [("repo", "carol.test")])
                .decode(GetSessionAnswer.self)
            #expect(other.did == bob.did.rawValue)
        }
    }

    @Test("a bound client acts only as its account")
    func bound() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            _ = try await world.signIn("bob.test", with: accounts)
            let client = try await accounts.client(for: "alice.test")
            #expect(try await client.getSession().did == alice.did.rawValue)
            let error = await #expect(throws: AccountError.self) {
                try await client.query(NSIDs.getSession, as: "bob.test")
            }
            #expect(error?.category == .usage)
        }
    }

    @Test("no account, an unknown account and no active account are sign-in errors")
    func missing() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let none = await #expect(throws: AccountError.self) { try await accounts.client().getSession() }
            #expect(none?.code == .noAccounts)
            _ = try await world.signIn("alice.test", with: accounts)
            let unknown = await #expect(throws: AccountError.self) { try await accounts.client(for: "zed.test") }
            #expect(unknown?.code == .noSuchAccount)
            try world.keystore.delete("accounts/active")
            let inactive = await #expect(throws: AccountError.self) { try await accounts.client().getSession() }
            #expect(inactive?.code == .noActiveAccount)
        }
    }

    @Test("an account added by another manager (another process) is found without restarting")
    func anotherProcess() async throws {
        try await SandboxWorld.with { world in
            let here = world.accounts()
            _ = try await world.signIn("alice.test", with: here)
            #expect(try await here.accounts().count == 1)
            let bob = try await world.signIn("bob.test", with: world.accounts())
            let session = try await here.client().query(NSIDs.getSession, as: "bob.test").decode(GetSessionAnswer.self)
            #expect(session.did == bob.did.rawValue)
        }
    }
}

extension RoutingTests {
    @Test("an account another manager (another process) removed is no repo's account any more: the active one is")
    func removedByAnotherProcess() async throws {
        try await SandboxWorld.with { world in
            let here = world.accounts()
            let alice = try await world.signIn("alice.test", with: here)
            let bob = try await world.signIn("bob.test", with: here)
            #expect(try await here.accounts().count == 2)  // as a gateway lists them when it starts
            let client = here.client()
            let before = try await client.query(NSIDs.getSession, parameters: [("repo", "alice.test")])
            #expect(try before.decode(GetSessionAnswer.self).did == alice.did.rawValue)
            _ = try await world.accounts().remove("alice.test")
            let after = try await client.query(NSIDs.getSession, parameters: [("repo", "alice.test")])
            #expect(try after.decode(GetSessionAnswer.self).did == bob.did.rawValue)
        }
    }
}

struct GetSessionAnswer: Decodable {
    var did: String
}

enum NSIDs {
    static let getSession = nsid("com.atproto.server.getSession")
    static let createRecord = nsid("com.atproto.repo.createRecord")

    private static func nsid(_ text: String) -> NSID {
        guard let value = try? NSID(validating: text) else { preconditionFailure("\(text) is a valid NSID") }
        return value
    }
}
