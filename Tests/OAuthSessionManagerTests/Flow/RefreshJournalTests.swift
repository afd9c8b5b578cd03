import ATOAuthTesting
import AccountManager
import Failures
import Foundation
import HTTPTransport
import Keystore
import Sandbox
import Testing

@testable import OAuthSessionManager

@Suite("A rotated refresh token is never lost silently, nor sent twice")
struct RefreshJournalTests {
    /// Signs alice in over a store that can be made to fail, and over `transport` (the world's by default).
    private func signedIn(
        _ world: SandboxWorld,
        transport: (any HTTPTransport)? = nil
    ) async throws -> (SessionManager, FaultyKeystore, Session) {
        let store = FaultyKeystore(InMemoryKeystore())
        let sessions = world.accounts(keystore: store, transport: transport).sessions
        return (sessions, store, try await world.signIn(with: sessions))
    }

    @Test("new tokens that cannot be saved are revoked and the session ends; the spent token is never sent again")
    func saveFails() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            store.failSaves(of: "session/", count: 3)
            let error = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(error?.category == .signInNeeded)
            #expect(error?.description.contains("could not be saved (No space left on device)") == true)
            #expect(try await store.names().filter { !$0.hasPrefix("pending/") }.isEmpty)
            #expect(world.server.counters.revocations >= 1)

            let again = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: nil)
            }
            #expect(again?.category == .signInNeeded)
            #expect(world.server.counters.refreshGrantsSucceeded == 1)
            #expect(world.server.counters.refreshTokenReplays == 0)
        }
    }

    @Test("new tokens that fail a check are revoked and the session ends: the caller is told to sign in again")
    func answerFailsCheck() async throws {
        try await SandboxWorld.with { world in
            let detours = DetouringTransport(world.transport, path: "/oauth/token")
            let (sessions, store, session) = try await signedIn(world, transport: detours)
            detours.changeNextAnswer(through: world.transport) { answer in
                var object = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
                object["token_type"] = "Bearer"
                answer.body = try JSONSerialization.data(withJSONObject: object)
            }
            let error = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(error?.category == .signInNeeded)
            #expect(error?.description.contains("failed a check") == true, "\(String(describing: error))")
            #expect(error?.description.contains("they were revoked") == true)
            #expect(try await store.names().filter { $0.hasPrefix("session/") }.isEmpty)
            #expect(world.server.counters.revocations >= 1)
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
            let error = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(error?.category == .signInNeeded)
            #expect(error?.description.contains("was not sent again") == true)
            #expect(world.server.counters.refreshGrantsSucceeded == 0)
            #expect(world.server.counters.refreshTokenReplays == 0)
            #expect(try await store.names().filter { $0.hasPrefix("session/") || $0.hasPrefix("refreshing/") }.isEmpty)
        }
    }

    @Test("a refresh answered after the client gave up keeps its note; the next one ends the session, no replay")
    func answeredLate() async throws {
        try await SandboxWorld.with { world in
            let detours = DetouringTransport(world.transport, path: "/oauth/token")
            let (sessions, store, session) = try await signedIn(world, transport: detours)
            try await AsyncHTTPClientTransport.withTransport(configuration: DetouringTransport.impatient) { impatient in
                detours.answerNextLate(from: world.server, through: impatient)
                let timedOut = await #expect(throws: SessionError.self) {
                    try await sessions.refresh(did: session.did, replacing: session.accessToken)
                }
                #expect(timedOut?.category == .failed)
                #expect(
                    timedOut?.description.contains("timed out after 3 s") == true,
                    "\(String(describing: timedOut))"
                )
            }
            #expect(try await store.names().contains(RefreshJournal.entryName(did: session.did)))
            // The server goes on with the request the client gave up on, and rotates the refresh token.
            try await Waiting.until("the sandbox rotated the refresh token") {
                world.server.counters.refreshGrantsSucceeded == 1
            }

            let ended = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(ended?.category == .signInNeeded)
            #expect(ended?.description.contains("got no answer in time") == true, "\(String(describing: ended))")
            #expect(ended?.description.contains("was not sent again") == true)
            #expect(world.server.counters.refreshGrantsSucceeded == 1)
            #expect(world.server.counters.refreshTokenReplays == 0)
            #expect(try await store.names().filter { $0.hasPrefix("session/") || $0.hasPrefix("refreshing/") }.isEmpty)
        }
    }

    @Test("a refresh whose connection is cut after the request was sent keeps its note; the token is not sent again")
    func cutAfterSending() async throws {
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(.hangUp)) { hangUp in
            try await SandboxWorld.with { world in
                let detours = DetouringTransport(world.transport, path: "/oauth/token")
                let (sessions, store, session) = try await signedIn(world, transport: detours)
                detours.sendNext(toPort: hangUp.port, through: world.transport)
                let cut = await #expect(throws: SessionError.self) {
                    try await sessions.refresh(did: session.did, replacing: session.accessToken)
                }
                #expect(cut?.category == .failed)
                #expect(!hangUp.requests.isEmpty)
                #expect(try await store.names().contains(RefreshJournal.entryName(did: session.did)))

                let ended = await #expect(throws: SessionError.self) {
                    try await sessions.refresh(did: session.did, replacing: session.accessToken)
                }
                #expect(ended?.category == .signInNeeded)
                #expect(ended?.description.contains("got no answer in time") == true)
                #expect(world.server.counters.refreshGrantsSucceeded == 0)
                #expect(world.server.counters.refreshTokenReplays == 0)
            }
        }
    }

    @Test("a refresh whose connection is refused never reached the server: its note goes, and a later one works")
    func connectionRefused() async throws {
        // A port bound but not listened on: connecting is refused, and no other test's server can take the port.
        let closed = try ClosedPort()
        try await SandboxWorld.with { world in
            let detours = DetouringTransport(world.transport, path: "/oauth/token")
            let (sessions, store, session) = try await signedIn(world, transport: detours)
            detours.sendNext(toPort: closed.port, through: world.transport)
            let refused = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(refused?.category == .failed)
            #expect(
                refused?.description.contains("nothing accepted the connection") == true,
                "\(String(describing: refused))"
            )
            #expect(try await store.names().allSatisfy { !$0.hasPrefix("refreshing/") })

            let refreshed = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(try await sessions.storedSession(for: session.did)?.refreshToken == refreshed.refreshToken)
            #expect(world.server.counters.refreshGrantsSucceeded == 1)
            #expect(world.server.counters.refreshTokenReplays == 0)
        }
        withExtendedLifetime(closed) {}
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
