import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Keystore
import OAuthSessionManager
import Sandbox
import Testing

@Suite("ATClient against the strict sandbox")
struct XRPCFlowTests {
    struct Post: Codable, Sendable, Equatable {
        var text: String
    }

    @Test("typed repo calls, a blob upload and a profile, all DPoP-bound to the account's PDS")
    func typedCalls() async throws {
        try await SandboxWorld.with { flow in
            let accounts = flow.accounts()
            let session = try await flow.signIn(with: accounts)
            let client = try await accounts.client(for: .did(session.did))
            let repo = session.did.rawValue
            #expect(try await client.getSession().did == repo)

            let created = try await client.createRecord(
                repo: repo,
                collection: "app.bsky.feed.post",
                rkey: "first",
                record: Post(text: "hello")
            )
            #expect(created.uri == "at://\(repo)/app.bsky.feed.post/first")
            let fetched = try await client.getRecord(
                repo: repo,
                collection: "app.bsky.feed.post",
                rkey: "first",
                as: Post.self
            )
            #expect(fetched.value == Post(text: "hello"))
            let page = try await client.listRecords(
                repo: repo,
                collection: "app.bsky.feed.post",
                limit: 10,
                as: Post.self
            )
            #expect(page.records.map(\.value) == [Post(text: "hello")])

            let blob = try await client.uploadBlob(Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]), mimeType: "image/png")
            #expect(blob.type == "blob" && blob.mimeType == "image/png" && blob.size == 7 && !blob.ref.link.isEmpty)

            #expect(try await client.getProfile(actor: "alice.test").handle == "alice.test")

            try await client.deleteRecord(repo: repo, collection: "app.bsky.feed.post", rkey: "first")
            let missing = await #expect(throws: XRPCError.self) {
                try await client.getRecord(repo: repo, collection: "app.bsky.feed.post", rkey: "first", as: Post.self)
            }
            #expect(missing?.status == 400 || missing?.status == 404)
            #expect(missing?.error == "RecordNotFound")
            #expect(missing?.method == "com.atproto.repo.getRecord")
        }
    }

    @Test("an access token the PDS refuses is refreshed once and the call retried once")
    func invalidTokenRetry() async throws {
        try await SandboxWorld.with { flow in
            let accounts = flow.accounts()
            let session = try await flow.signInWithRefusedAccessToken(activeIn: accounts)
            let client = try await accounts.client(for: .did(session.did))
            #expect(try await client.getSession().did == session.did.rawValue)
            #expect(flow.server.counters.refreshGrantsSucceeded == 1)
            // The refreshed session is kept in memory: the next call needs no refresh and no re-read.
            #expect(try await client.getSession().did == session.did.rawValue)
            #expect(flow.server.counters.refreshGrantsSucceeded == 1)
        }
    }
}

/// A session as the store keeps it.
func storedForm(_ session: Session) throws -> Data {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    return try encoder.encode(session)
}
