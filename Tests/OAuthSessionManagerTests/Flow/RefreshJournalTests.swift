import ATOAuthTesting
import AccountManager
import Failures
import Foundation
import Keystore
import Sandbox
import Testing

@testable import OAuthSessionManager

@Suite("A rotated refresh token is never lost silently, nor sent twice")
struct RefreshJournalTests {
    /// Signs alice in over a store that can be made to fail.
    private func signedIn(_ world: SandboxWorld) async throws -> (OAuthSessionManager, FaultyKeystore, Session) {
        let store = FaultyKeystore(InMemoryKeystore())
        let sessions = world.accounts(keystore: store).sessions
        return (sessions, store, try await world.signIn(with: sessions))
    }

    @Test("new tokens that cannot be saved are revoked and the session ends; the spent token is never sent again")
    func saveFails() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            store.failSaves(of: "session/", count: 3)
            let error = await #expect(throws: OAuthError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(error?.category == .signInNeeded)
            #expect(error?.description.contains("could not be saved (No space left on device)") == true)
            #expect(try await store.names().filter { !$0.hasPrefix("pending/") }.isEmpty)
            #expect(world.server.counters.revocations >= 1)

            let again = await #expect(throws: OAuthError.self) {
                try await sessions.refresh(did: session.did, replacing: nil)
            }
            #expect(again?.category == .signInNeeded)
            #expect(world.server.counters.refreshGrantsSucceeded == 1)
            #expect(world.server.counters.refreshTokenReplays == 0)
        }
    }

    @Test("a save that fails once is retried and the refresh succeeds")
    func saveRetried() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            store.failSaves(of: "session/", count: 1)
            let refreshed = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(try await sessions.storedSession(for: session.did)?.refreshToken == refreshed.refreshToken)
            #expect(try await store.names().allSatisfy { !$0.hasPrefix("refreshing/") })
        }
    }

    @Test("a refresh cut off before its tokens were saved (a killed process) ends the session instead of a replay")
    func interrupted() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            // What a process killed between the token answer and the save leaves behind.
            try await RefreshJournal(keystore: store).begin(
                session.did,
                refreshToken: try #require(session.refreshToken)
            )
            let error = await #expect(throws: OAuthError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(error?.category == .signInNeeded)
            #expect(error?.description.contains("was not sent again") == true)
            #expect(world.server.counters.refreshGrantsSucceeded == 0)
            #expect(world.server.counters.refreshTokenReplays == 0)
            #expect(try await store.names().filter { $0.hasPrefix("session/") || $0.hasPrefix("refreshing/") }.isEmpty)
        }
    }

    @Test("a stale note for an older refresh token is ignored and removed by the next refresh")
    func staleNote() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            try await RefreshJournal(keystore: store).begin(session.did, refreshToken: "an older refresh token")
            let refreshed = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(try await store.names().allSatisfy { !$0.hasPrefix("refreshing/") })
        }
    }
}
