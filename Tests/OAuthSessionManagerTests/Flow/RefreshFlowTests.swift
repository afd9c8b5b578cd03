import ATOAuthTesting
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Failures
import Foundation
import Keystore
import OAuthMetadata
import OAuthSessionManager
import Sandbox
import Testing

@Suite("Refresh and sign-out against the strict sandbox", .serialized)
struct RefreshFlowTests {
    @Test("100 concurrent callers with the same expired token cause exactly one refresh")
    func singleFlight() async throws {
        try await SandboxWorld.with { flow in
            let manager = flow.sessions()
            let session = try await flow.signIn(with: manager)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await manager.refresh(did: session.did, replacing: session.accessToken).accessToken
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            #expect(tokens.first != session.accessToken)
            #expect(flow.server.counters.refreshGrantsSucceeded == 1)
            #expect(flow.server.counters.refreshTokenReplays == 0)
        }
    }

    @Test("two managers sharing the store refresh once: the second re-reads the stored session under the lock")
    func acrossManagers() async throws {
        try await SandboxWorld.with { flow in
            let session = try await flow.signIn(with: flow.sessions())
            async let first = flow.sessions().refresh(did: session.did, replacing: session.accessToken)
            async let second = flow.sessions().refresh(did: session.did, replacing: session.accessToken)
            let (a, b) = try await (first, second)
            #expect(a.accessToken == b.accessToken)
            #expect(flow.server.counters.refreshGrantsSucceeded == 1)
            #expect(flow.server.counters.refreshTokenReplays == 0)
        }
    }

    @Test("an access token near expiry is refreshed ahead of time")
    func ahead() async throws {
        try await SandboxWorld.with(SandboxConfiguration(accessTokenLifetime: 3600, autoApprove: true)) { flow in
            let accounts = flow.accounts()
            let session = try await flow.signIn(with: flow.sessions())
            let connection = try await accounts.restore(.did(session.did))
            #expect(try await connection.currentSession().accessToken == session.accessToken)
            flow.clock.advance(by: 3600 - 5)
            #expect(try await connection.currentSession().accessToken != session.accessToken)
            #expect(flow.server.counters.refreshGrantsSucceeded == 1)
        }
    }

    @Test("a 5xx on refresh keeps the session; invalid_grant deletes it and callers learn to sign in again")
    func transientAndDefinitive() async throws {
        try await SandboxWorld.with(
            SandboxConfiguration(autoApprove: true, faults: SandboxFaults(refreshServerError: .times(1)))
        ) { flow in
            let manager = flow.sessions()
            let events = manager.events()
            let session = try await flow.signIn(with: manager)
            let transient = await #expect(throws: SessionError.self) {
                try await manager.refresh(did: session.did, replacing: session.accessToken)
            }
            #expect(transient?.category == .failed)
            #expect(try await manager.storedSessions().count == 1)
            // The failure is recorded for a diagnosis (`atoauth doctor`), without a token, and cleared by a success.
            let record = try #require(await RefreshFailureRecord.load(session.did, from: flow.keystore))
            #expect(record.reason.contains("500") || record.reason.contains("server_error"), "\(record.reason)")
            #expect(!record.reason.contains(try #require(session.refreshToken)))

            let refreshed = try await manager.refresh(did: session.did, replacing: session.accessToken)
            #expect(await RefreshFailureRecord.load(session.did, from: flow.keystore) == nil)
            // Present the spent refresh token: the server deletes the whole session (replay detection).
            var stale = refreshed
            stale.refreshToken = session.refreshToken
            try flow.keystore.save(try JSONEncoderForTests.encode(stale), as: "session/\(session.did)")
            let definitive = await #expect(throws: SessionError.self) {
                try await manager.refresh(did: session.did, replacing: stale.accessToken)
            }
            #expect(definitive?.category == .signInNeeded)
            #expect(try await manager.storedSessions().isEmpty)
            #expect(flow.server.counters.refreshTokenReplays == 1)
            var seen: [SessionEvent] = []
            for await event in events {
                seen.append(event)
                if case .deleted = event { break }
            }
            #expect(seen.last == .deleted(did: session.did, reason: .refreshRefused))
        }
    }

    @Test("sign-out revokes at the server and deletes the session and key even when revocation fails")
    func signOut() async throws {
        try await SandboxWorld.with { flow in
            let manager = flow.sessions()
            let session = try await flow.signIn(with: manager)
            #expect(try await manager.signOut(did: session.did) == .revoked)
            #expect(try flow.keystore.names().filter { $0.contains(session.did.rawValue) }.isEmpty)
            #expect(flow.server.counters.revocations >= 1)

            let again = try await flow.signIn("bob.test", with: manager)
            await flow.server.stop()
            let result = try await manager.signOut(did: again.did)
            guard case .failed = result else {
                Issue.record("revocation against a stopped server should fail, got \(result)")
                return
            }
            #expect(try flow.keystore.names().filter { $0.contains(again.did.rawValue) }.isEmpty)
        }
    }
}

enum JSONEncoderForTests {
    static func encode(_ session: Session) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(session)
    }
}

@Suite("Granted permissions across sign-in and refresh")
struct GrantedPermissionTests {
    @Test("the grant is stored at sign-in and again at each refresh; what was not granted is known")
    func grantedAcrossRefresh() async throws {
        try await SandboxWorld.with { world in
            let sessions = world.sessions()
            let client = try world.oauthClient(scope: "atproto repo:app.bsky.feed.post?action=create blob:image/*")
            let request = try await sessions.startSignIn("alice.test", client: client)
            let signedIn = try await sessions.completeSignIn(callbackURL: try await world.approve(request)).session
            #expect(signedIn.scope == "atproto repo:app.bsky.feed.post?action=create blob:image/*")
            #expect(signedIn.requestedScope == client.scope)
            #expect(signedIn.missingPermissions.isEmpty)

            // The server recomputes the grant on refresh; now it declines blob uploads.
            world.server.updateConfiguration { $0.withheldPermissions = ["blob:image/*"] }
            let refreshed = try await sessions.refresh(did: signedIn.did, replacing: signedIn.accessToken)
            #expect(refreshed.scope == "atproto repo:app.bsky.feed.post?action=create")
            #expect(refreshed.missingPermissions.description == "blob:image/*")
            let stored = try #require(try await sessions.storedSession(for: signedIn.did))
            #expect(stored.scope == refreshed.scope)
            #expect(stored.requestedScope == client.scope)
        }
    }
}
