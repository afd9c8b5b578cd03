import ATOAuthTesting
import AccountManager
import Failures
import Foundation
import HTTPTransport
import Keystore
import Sandbox
import Testing

@testable import OAuthSessionManager

@Suite("An app-password session's rotated refresh JWT is never lost silently, and sent again only within its grace")
struct AppPasswordRefreshTests {
    /// Signs alice in with her app password over a store that can be made to fail, and over `transport` (the
    /// world's by default).
    private func signedIn(
        _ world: SandboxWorld,
        transport: (any HTTPTransport)? = nil
    ) async throws -> (SessionManager, FaultyKeystore, Session) {
        let store = FaultyKeystore(InMemoryKeystore())
        let sessions = world.accounts(keystore: store, transport: transport).sessions
        let completion = try await sessions.signInWithAppPassword(
            "alice.test",
            password: try #require(world.server.configuration.account(for: "alice.test")?.appPassword),
            replacingOAuth: false,
            authFactor: { nil }
        )
        return (sessions, store, completion.session)
    }

    @Test("a refresh rotates both JWTs, keeps the kind, and concurrent callers share it")
    func rotates() async throws {
        try await SandboxWorld.with { world in
            let (sessions, _, session) = try await signedIn(world)
            async let first = sessions.refresh(did: session.did, replacing: session.accessToken)
            async let second = sessions.refresh(did: session.did, replacing: session.accessToken)
            let (one, two) = try await (first, second)
            #expect(one.accessToken == two.accessToken)
            #expect(one.accessToken != session.accessToken && one.refreshToken != session.refreshToken)
            #expect(one.kind == .appPassword)
            #expect(try await sessions.storedSession(for: session.did)?.refreshToken == one.refreshToken)
            #expect(world.server.counters.legacyRefreshesSucceeded == 1)
        }
    }

    @Test("new JWTs that cannot be saved leave the session as it was; the next refresh sends the JWT again")
    func saveFails() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            store.failSaves(of: "session/", count: 3)
            let error = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(error?.code == .sessionNotSaved)
            #expect(error?.category == .failed && error?.origin == .machine)
            #expect(
                error?.description == "Refresh not saved: the refreshed tokens of alice.test could not be saved "
                    + "(No space left on device). The session is kept."
            )
            #expect(try await sessions.storedSession(for: session.did)?.refreshToken == session.refreshToken)
            #expect(world.server.counters.legacySessionsDeleted == 0)

            let refreshed = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(world.server.counters.legacyRefreshTokenReuses == 1)
            #expect(world.server.counters.refreshTokenReplays == 0)
        }
    }

    @Test("a refresh cut off before its JWTs were saved (a killed process) sends the JWT again: the PDS allows it")
    func interrupted() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            // What a process killed between the PDS's answer and the save leaves: a used refresh JWT, stored.
            let lost = try await world.transport.send(
                HTTPRequest(
                    method: .post,
                    url: world.endpoints.pds.appending(path: "xrpc/com.atproto.server.refreshSession"),
                    headers: ["Authorization": "Bearer \(try #require(session.refreshToken))"]
                )
            )
            #expect(lost.status == 200)
            let refreshed = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(world.server.counters.legacyRefreshTokenReuses == 1)
            #expect(try await store.names().allSatisfy { !$0.hasPrefix("refreshing/") })
        }
    }

    @Test("an answer that is no session (a proxy's page) leaves the session as it was; the next refresh goes on")
    func unreadableAnswer() async throws {
        try await SandboxWorld.with { world in
            let detours = DetouringTransport(world.transport, path: "/xrpc/com.atproto.server.refreshSession")
            let (sessions, _, session) = try await signedIn(world, transport: detours)
            detours.changeNextAnswer(through: world.transport) {
                $0.body = Data("<html>Sign in to the Wi-Fi</html>".utf8)
            }
            let error = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(error?.category == .failed)
            #expect(error?.description.contains("answer was not a session") == true, "\(String(describing: error))")
            #expect(error?.description.hasSuffix("The session is kept.") == true, "\(String(describing: error))")
            #expect(try await sessions.storedSession(for: session.did)?.refreshToken == session.refreshToken)
            _ = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(world.server.counters.legacyRefreshTokenReuses == 1)
            #expect(world.server.counters.legacySessionsDeleted == 0)
        }
    }

    /// Signs alice in and refreshes once, answered by the PDS only after the client gave up.
    ///
    /// The PDS used the stored JWT, and the client kept it. Returns the session and the refresh's error.
    private func refreshedWithoutAnswer(
        _ world: SandboxWorld
    ) async throws -> (SessionManager, FaultyKeystore, Session, SessionError?) {
        let detours = DetouringTransport(world.transport, path: "/xrpc/com.atproto.server.refreshSession")
        let (sessions, store, session) = try await signedIn(world, transport: detours)
        let error = try await AsyncHTTPClientTransport.withTransport(configuration: DetouringTransport.impatient) {
            impatient in
            detours.answerNextLate(from: world.server, through: impatient)
            return await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
        }
        try await Waiting.until("the sandbox rotated the refresh JWT") {
            world.server.counters.legacyRefreshesSucceeded == 1
        }
        return (sessions, store, session, error)
    }

    @Test("a refresh the PDS answered after the client gave up keeps the session; the next one sends the JWT again")
    func answeredLate() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session, timedOut) = try await refreshedWithoutAnswer(world)
            #expect(timedOut?.category == .failed)
            #expect(timedOut?.description.hasSuffix("The session is kept.") == true, "\(String(describing: timedOut))")
            #expect(try await store.names().allSatisfy { !$0.hasPrefix("refreshing/") })

            // The PDS answers the used JWT again with the same next one, and the chain goes on from there.
            let refreshed = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(world.server.counters.legacyRefreshTokenReuses == 1)
            _ = try await sessions.refresh(did: session.did, replacing: refreshed.accessToken)
            #expect(world.server.counters.legacyRefreshesSucceeded == 3)
            #expect(world.server.counters.legacyRefreshTokenReuses == 1)
            #expect(world.server.counters.refreshTokenReplays == 0)
        }
    }

    @Test("signing out after a refresh whose answer was lost ends the session with the JWT that replaced the used one")
    func signOutAfterLostAnswer() async throws {
        try await SandboxWorld.with { world in
            let (sessions, _, session, _) = try await refreshedWithoutAnswer(world)
            #expect(try await sessions.signOut(did: session.did) == .revoked)
            let counters = world.server.counters
            #expect(counters.legacyRefreshTokenReuses == 1, "the used JWT was refreshed first")
            #expect(counters.legacySessionsDeleted == 1)
            #expect(counters.legacySessionsDeletedWithUsedJWT == 0)
            #expect(counters.refreshTokenReplays == 0)
        }
    }

    @Test("signing out after refreshes that went well sends one request, deleteSession")
    func signOutSettled() async throws {
        try await SandboxWorld.with { world in
            let (sessions, _, session) = try await signedIn(world)
            _ = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(try await sessions.signOut(did: session.did) == .revoked)
            #expect(world.server.counters.legacyRefreshesSucceeded == 1)
            #expect(world.server.counters.legacySessionsDeleted == 1)
            #expect(world.server.counters.legacySessionsDeletedWithUsedJWT == 0)
        }
    }

    @Test("a refresh right after one the PDS failed (HTTP 500) sends its own request instead of sharing the failure")
    func refreshAfterFailure() async throws {
        try await SandboxWorld.with { world in
            let (sessions, _, session) = try await signedIn(world)
            world.server.updateConfiguration { $0.faults.refreshServerError = .times(1) }
            await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: session.accessToken)
            }
            let refreshed = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(world.server.counters.injectedRefreshFailures == 1)
            #expect(world.server.counters.legacyRefreshesSucceeded == 1)
        }
    }

    @Test("a refresh the PDS refuses (ExpiredToken) deletes the session: sign-in needed")
    func refused() async throws {
        try await SandboxWorld.with { world in
            let (sessions, store, session) = try await signedIn(world)
            let spent = try #require(session.refreshToken)
            _ = try await sessions.refresh(did: session.did, replacing: session.accessToken)
            // Another client presenting the spent refresh JWT after its two hours of grace makes the sandbox's PDS
            // end the whole session (the reference PDS refuses only that JWT).
            world.clock.advance(by: 2 * 60 * 60)
            let replay = try await world.transport.send(
                HTTPRequest(
                    method: .post,
                    url: world.endpoints.pds.appending(path: "xrpc/com.atproto.server.refreshSession"),
                    headers: ["Authorization": "Bearer \(spent)"]
                )
            )
            #expect(replay.status == 400)
            let error = await #expect(throws: SessionError.self) {
                try await sessions.refresh(did: session.did, replacing: nil)
            }
            #expect(error?.category == .signInNeeded)
            #expect(error?.serverError?.rawValue == "ExpiredToken")
            #expect(try await store.names().allSatisfy { !$0.hasPrefix("session/") })
        }
    }
}
