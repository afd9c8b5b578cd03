import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Failures
import Foundation
import HTTPTransport
import OAuthSessionManager
import Sandbox
import Testing

@Suite("App-password accounts in the library: Bearer never mixed with DPoP, the PDS's DID checked")
struct AppPasswordSignInTests {
    /// Changes the `did` of every `createSession` answer to `did`, as a PDS answering for another account would.
    struct OtherDIDTransport: HTTPTransport {
        let base: any HTTPTransport
        let did: String

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            var response = try await base.send(request)
            guard request.url.path.hasSuffix("com.atproto.server.createSession"),
                var object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            else { return response }
            object["did"] = did
            response.body = try JSONSerialization.data(withJSONObject: object)
            return response
        }
    }

    /// The app password the running sandbox made for `handle` at this start.
    static func appPassword(_ world: SandboxWorld, _ handle: String) throws -> String {
        try #require(world.server.configuration.account(for: handle)?.appPassword, "the sandbox hosts no \(handle)")
    }

    @Test("an app-password account sends Bearer and no proof; an OAuth account DPoP and a proof; never both")
    func neverMixed() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            let alice = try await accounts.signInWithAppPassword(
                "alice.test",
                password: try Self.appPassword(world, "alice.test")
            )
            #expect(alice.account.kind == .appPassword)
            #expect(alice.account.active)
            let bob = try await world.signIn("bob.test", with: accounts)
            #expect(bob.kind == .oauth)

            let before = recording.count
            _ = try await accounts.client(for: "alice.test").getSession()
            _ = try await accounts.client(for: "bob.test").getSession()
            let calls = recording.requests[before...].filter { $0.url.path.contains("getSession") }
            let aliceCalls = calls.filter { $0.headers["Authorization"]?.hasPrefix("Bearer ") == true }
            let bobCalls = calls.filter { $0.headers["Authorization"]?.hasPrefix("DPoP ") == true }
            #expect(aliceCalls.count == 1)
            #expect(aliceCalls.allSatisfy { $0.headers["DPoP"] == nil })
            #expect(!bobCalls.isEmpty)
            #expect(bobCalls.allSatisfy { $0.headers["DPoP"] != nil })
            #expect(aliceCalls.count + bobCalls.count == calls.count)
            #expect(world.server.counters.totalRejections == world.server.counters.nonceChallengesSent)
        }
    }

    @Test("a createSession answer for another DID fails the security check, stores nothing, ends that session")
    func otherDID() async throws {
        try await SandboxWorld.with { world in
            let bob = SandboxAccount.derivedDID(for: "bob.test")
            let password = try Self.appPassword(world, "alice.test")
            let accounts = world.accounts(transport: OtherDIDTransport(base: world.transport, did: bob))
            let error = await #expect(throws: SessionError.self) {
                try await accounts.signInWithAppPassword("alice.test", password: password)
            }
            #expect(error?.category == .securityCheckFailed)
            #expect(error?.description.contains("nothing was stored") == true)
            let stored = try await accounts.accounts()
            #expect(stored.isEmpty)
            #expect(world.server.counters.legacySessionsDeleted == 1)
        }
    }

    @Test("upgrade refuses an OAuth account and an unknown one; a completed upgrade keeps the account inactive")
    func upgrade() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            _ = try await accounts.signInWithAppPassword(
                "alice.test",
                password: try Self.appPassword(world, "alice.test")
            )
            _ = try await world.signIn("bob.test", with: accounts)
            await #expect(throws: AccountError.alreadyOAuth("bob.test")) {
                try await accounts.authorizeUpgrade("bob.test", client: try world.oauthClient())
            }
            await #expect(throws: AccountError.noSuchAccount("carol.test")) {
                try await accounts.authorizeUpgrade("carol.test", client: try world.oauthClient())
            }
            let request = try await accounts.authorizeUpgrade("alice.test", client: try world.oauthClient())
            let upgraded = try await accounts.completeUpgrade(callbackURL: try await world.approve(request))
            #expect(upgraded.account.kind == .oauth)
            #expect(!upgraded.account.active)
            #expect(upgraded.previousGrant == .revoked)
            #expect(try await accounts.activeAccount()?.handle?.rawValue == "bob.test")
            #expect(world.server.counters.legacySessionsDeleted == 1)
            _ = try await accounts.client(for: "alice.test").getSession()
        }
    }
}
