import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("The PDS enforces the permissions of the access token")
struct ScopeEnforcementTests {
    /// One PDS call, made the same way whatever the scope.
    enum Call: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case createPost, deletePost, uploadPNG, uploadMP4, getProfile, getProfileThroughProxy, getSession, listRecords

        var testDescription: String { rawValue }

        /// The other AppView an `atproto-proxy` header names.
        static let otherAppView = "did:web:appview.example#bsky_appview"

        func send(_ client: SandboxTestClient, _ tokens: Tokens) async throws -> HTTPResponse {
            let post: [String: Any] = ["repo": tokens.subject, "collection": "app.bsky.feed.post"]
            switch self {
            case .createPost:
                return try await client.xrpc(
                    .post,
                    "com.atproto.repo.createRecord",
                    json: post.merging(["record": ["text": "hello"]]) { first, _ in first },
                    accessToken: tokens.accessToken
                )
            case .deletePost:
                return try await client.xrpc(
                    .post,
                    "com.atproto.repo.deleteRecord",
                    json: post.merging(["rkey": "3kabcdefghijk"]) { first, _ in first },
                    accessToken: tokens.accessToken
                )
            case .uploadPNG, .uploadMP4:
                return try await client.xrpc(
                    .post,
                    "com.atproto.repo.uploadBlob",
                    body: Data([1, 2, 3]),
                    contentType: self == .uploadPNG ? "image/png" : "video/mp4",
                    accessToken: tokens.accessToken
                )
            case .getProfile, .getProfileThroughProxy:
                var request = try client.xrpcRequest(
                    .get,
                    "app.bsky.actor.getProfile",
                    query: [("actor", tokens.subject)]
                )
                if self == .getProfileThroughProxy {
                    request.headers.add(name: "atproto-proxy", value: Self.otherAppView)
                }
                return try await client.executor.send(request, accessToken: tokens.accessToken)
            case .getSession:
                return try await client.xrpc(.get, "com.atproto.server.getSession", accessToken: tokens.accessToken)
            case .listRecords:
                return try await client.xrpc(
                    .get,
                    "com.atproto.repo.listRecords",
                    query: [("repo", tokens.subject), ("collection", "app.bsky.feed.post")],
                    accessToken: tokens.accessToken
                )
            }
        }
    }

    static let appView = "did:web:api.bsky.app%23bsky_appview"

    /// A granted scope, a call, and the permission the PDS reports missing (`nil` when the call is allowed).
    static let cases: [(String, Call, String?)] = [
        ("atproto repo:app.bsky.feed.post?action=create", .createPost, nil),
        ("atproto repo:app.bsky.feed.post?action=delete", .createPost, "repo:app.bsky.feed.post?action=create"),
        ("atproto repo:app.bsky.feed.like", .createPost, "repo:app.bsky.feed.post?action=create"),
        ("atproto", .createPost, "repo:app.bsky.feed.post?action=create"),
        ("atproto repo:app.bsky.feed.post?action=delete", .deletePost, nil),
        ("atproto repo:app.bsky.feed.post?action=create", .deletePost, "repo:app.bsky.feed.post?action=delete"),
        ("atproto blob:image/*", .uploadPNG, nil),
        ("atproto blob:image/*", .uploadMP4, "blob:video/mp4"),
        ("atproto blob:video/*", .uploadPNG, "blob:image/png"),
        ("atproto rpc:app.bsky.actor.getProfile?aud=\(appView)", .getProfile, nil),
        ("atproto repo:*", .getProfile, "rpc:app.bsky.actor.getProfile?aud=\(appView)"),
        (
            "atproto rpc:app.bsky.actor.getProfile?aud=\(appView)", .getProfileThroughProxy,
            "rpc:app.bsky.actor.getProfile?aud=did:web:appview.example%23bsky_appview"
        ),
        ("atproto rpc:app.bsky.actor.getProfile?aud=*", .getProfileThroughProxy, nil),
        ("atproto include:app.bsky.authCreatePosts?aud=\(appView)", .createPost, nil),
        ("atproto include:app.bsky.authCreatePosts?aud=\(appView)", .getProfile, nil),
        ("atproto", .getSession, nil),
        ("atproto", .listRecords, nil),
    ]

    @Test("a call is allowed exactly when the grant covers it, and refused like the reference PDS", arguments: cases)
    func enforcement(scope: String, call: Call, missing: String?) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client(registering: scope)
            let tokens = try await client.signIn()
            let response = try await call.send(client, tokens)
            #expect(response.headers["DPoP-Nonce"] != nil)
            guard let missing else {
                #expect(response.status == 200, "\(response.text)")
                #expect(sandbox.server.counters.rejections(.scopeMissing) == 0)
                return
            }
            #expect(response.status == 403)
            #expect(
                response.text == #"{"error":"ScopeMissingError","message":"Missing required scope \"\#(missing)\""}"#
            )
            #expect(response.headers["WWW-Authenticate"] == nil)
            #expect(sandbox.server.counters.rejections(.scopeMissing) == 1)
            #expect(sandbox.logMessages.contains { $0.contains("Missing required scope \"\(missing)\"") })
        }
    }

    @Test("transition:generic still allows every call", arguments: Call.allCases)
    func transitionGeneric(call: Call) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let tokens = try await client.signIn()
            let response = try await call.send(client, tokens)
            #expect(response.status == 200, "\(response.text)")
        }
    }

    @Test(
        "getSession shows the email only to a grant that may read it, as the reference PDS answers",
        arguments: [("atproto", false), ("atproto transition:email", true), ("atproto account:email", true)]
    )
    func email(scope: String, shown: Bool) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client(registering: scope)
            let tokens = try await client.signIn()
            let session = try await Call.getSession.send(client, tokens).json()
            #expect(session["did"] as? String == tokens.subject)
            #expect((session["email"] as? String == "alice.test@example.com") == shown, "\(session)")
            #expect((session["emailConfirmed"] != nil) == shown)
        }
    }

    @Test("resolveLexicon serves a permission set without authentication, and refuses an unknown NSID")
    func resolveLexicon() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let known = try await Self.resolveLexicon("app.bsky.authCreatePosts", client)
            #expect(known.status == 200)
            let json = try known.json()
            #expect(
                json["uri"] as? String
                    == "at://did:web:lexicons.sandbox.test/com.atproto.lexicon.schema/app.bsky.authCreatePosts"
            )
            let schema = try #require(json["schema"] as? [String: Any])
            #expect(schema["lexicon"] as? Int == 1)
            #expect(schema["id"] as? String == "app.bsky.authCreatePosts")
            let main = try #require((schema["defs"] as? [String: Any])?["main"] as? [String: Any])
            #expect(main["type"] as? String == "permission-set")
            #expect(main["title"] as? String != nil && main["detail"] as? String != nil)
            let permissions = try #require(main["permissions"] as? [[String: Any]])
            #expect(permissions.count == 2)
            #expect(permissions.first?["collection"] as? [String] == ["app.bsky.feed.post"])
            #expect(permissions.first?["action"] as? [String] == ["create"])
            #expect(permissions.last?["lxm"] as? [String] == ["app.bsky.actor.getProfile"])
            #expect(permissions.last?["inheritAud"] as? Bool == true)

            let unknown = try await Self.resolveLexicon("com.example.nothing", client)
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "LexiconNotFound")
        }
    }

    /// `com.atproto.lexicon.resolveLexicon` without authentication.
    static func resolveLexicon(_ nsid: String, _ client: SandboxTestClient) async throws -> HTTPResponse {
        try await client.send(
            try client.xrpcRequest(.get, "com.atproto.lexicon.resolveLexicon", query: [("nsid", nsid)])
        )
    }
}
