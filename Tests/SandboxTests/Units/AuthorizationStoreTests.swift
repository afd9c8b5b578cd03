import Foundation
import Testing

@testable import Sandbox

@Suite("The authorization store redeems a code once, and a code presented twice leaves no live session")
struct AuthorizationStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let code = "code-1"
    static let accessToken = "acc-1"

    /// A store holding one issued, unredeemed code.
    static func storeWithCode() async -> AuthorizationStore {
        let store = AuthorizationStore()
        let request = PushedAuthorization(
            requestURI: "urn:ietf:params:oauth:request_uri:req-1",
            clientID: "http://localhost",
            redirectURI: "http://127.0.0.1/callback",
            state: "state-1",
            scope: "atproto",
            codeChallenge: "challenge",
            dpopKeyThumbprint: "thumbprint",
            expiresAt: now.addingTimeInterval(300)
        )
        await store.issueCode(
            code,
            record: AuthorizationCodeRecord(
                request: request,
                subject: "did:plc:alice",
                expiresAt: now.addingTimeInterval(60)
            )
        )
        return store
    }

    /// Creates the session the exchange of ``code`` issues.
    static func createSession(in store: AuthorizationStore) async throws(AuthorizationStore.Failure) -> SessionRecord {
        try await store.createSession(
            code: code,
            SessionRecord(
                id: "session-1",
                subject: "did:plc:alice",
                clientID: "http://localhost",
                requestedScope: "atproto",
                scope: "atproto",
                dpopKeyThumbprint: "thumbprint",
                refreshToken: "ref-1",
                expiresAt: now.addingTimeInterval(3600),
                refreshTokenExpiresAt: now.addingTimeInterval(3600)
            ),
            accessToken: accessToken,
            accessTokenExpiresAt: now.addingTimeInterval(600)
        )
    }

    @Test("a code presented again after its exchange revokes the session that exchange created")
    func replayAfterExchange() async throws {
        let store = await Self.storeWithCode()
        _ = try await store.redeemCode(Self.code, now: Self.now)
        _ = try await Self.createSession(in: store)
        #expect(try await store.accessToken(Self.accessToken, now: Self.now).subject == "did:plc:alice")

        await #expect(throws: AuthorizationStore.Failure.reused) {
            try await store.redeemCode(Self.code, now: Self.now)
        }
        await #expect(throws: AuthorizationStore.Failure.unknown) {
            try await store.accessToken(Self.accessToken, now: Self.now)
        }
    }

    @Test("a code presented again while its first exchange is under way: that exchange creates no session")
    func replayDuringExchange() async throws {
        let store = await Self.storeWithCode()
        _ = try await store.redeemCode(Self.code, now: Self.now)
        await #expect(throws: AuthorizationStore.Failure.reused) {
            try await store.redeemCode(Self.code, now: Self.now)
        }

        await #expect(throws: AuthorizationStore.Failure.reused) {
            try await Self.createSession(in: store)
        }
        await #expect(throws: AuthorizationStore.Failure.unknown) {
            try await store.accessToken(Self.accessToken, now: Self.now)
        }
    }
}
