import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("The authorization server grants permission scopes")
struct ScopeGrantTests {
    static let appView = "did:web:api.bsky.app%23bsky_appview"

    @Test("a granular scope is granted as requested, in canonical form, with space permissions passed through")
    func granularScopeGranted() async throws {
        let canonical =
            "atproto repo:app.bsky.feed.post?action=create blob:image/* rpc:app.bsky.actor.getProfile?aud=\(Self.appView)"
            + " space:com.example.bookmarks"
        let asked =
            "atproto repo?collection=app.bsky.feed.post&action=create blob:image/*"
            + " rpc?lxm=app.bsky.actor.getProfile&aud=\(Self.appView) space:com.example.bookmarks"
        try await withSandbox { sandbox in
            let tokens = try await sandbox.client(registering: asked, asking: asked).signIn()
            #expect(tokens.scope == canonical)
        }
    }

    @Test(
        "the PAR refuses a scope naming the offending token",
        arguments: [
            (
                "atproto repo:*", "atproto repo:app.bsky.feed.post?action=publish",
                "repo:app.bsky.feed.post?action=publish"
            ),
            ("atproto repo:*", "atproto blob:image", "blob:image"),
            ("atproto repo:*", "atproto Repo:*", "Repo:*"),
            ("atproto repo:*", "repo:*", "atproto"),
            (
                "atproto repo:app.bsky.feed.post?action=create", "atproto repo:app.bsky.feed.post",
                "repo:app.bsky.feed.post"
            ),
            (
                "atproto include:com.example.authNothing", "atproto include:com.example.authNothing",
                "com.example.authNothing"
            ),
            // Registered in another spelling: compared as strings, as the reference server compares them.
            (
                "atproto repo?collection=app.bsky.feed.post", "atproto repo:app.bsky.feed.post",
                #"Scope "repo:app.bsky.feed.post" is not declared in the client metadata"#
            ),
        ]
    )
    func parRefusesScope(registered: String, asked: String, named: String) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client(registering: registered, asking: asked)
            let response = try await client.pushedAuthorizationResponse(client.parParameters(FlowSecrets()))
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_scope")
            let description = try #require(try response.json()["error_description"] as? String)
            #expect(description.contains(named), "\(description)")
            #expect(sandbox.server.counters.rejections(.invalidScope) == 1)
        }
    }

    @Test("a token spelled as the client registered it is accepted, in whatever spelling")
    func parAcceptsRegisteredSpelling() async throws {
        try await withSandbox { sandbox in
            let scope = "atproto repo?collection=app.bsky.feed.post&action=create"
            let client = sandbox.client(registering: scope, asking: scope)
            let response = try await client.pushedAuthorizationResponse(client.parParameters(FlowSecrets()))
            #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    @Test(
        "a client whose registered scope does not parse is refused",
        arguments: ["atproto repo:app.bsky.feed.post?action=publish", "repo:*"]
    )
    func invalidRegistration(registered: String) async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client(registering: registered, asking: "atproto")
            let response = try await client.pushedAuthorizationResponse(client.parParameters(FlowSecrets()))
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_client")
        }
    }

    @Test(
        "an include is replaced by the permissions of its set, the rpc ones taking the include's audience",
        arguments: [
            (
                "atproto include:app.bsky.authCreatePosts?aud=\(appView)",
                "atproto repo:app.bsky.feed.post?action=create rpc:app.bsky.actor.getProfile?aud=\(appView)"
            ),
            ("atproto include:app.bsky.authCreatePosts", "atproto repo:app.bsky.feed.post?action=create"),
        ]
    )
    func includeExpanded(scope: String, granted: String) async throws {
        try await withSandbox { sandbox in
            let tokens = try await sandbox.client(registering: scope).signIn()
            #expect(tokens.scope == granted)
        }
    }

    @Test("a set grants nothing outside its namespace, nor rpc permissions with a DID audience of their own")
    func namespaceRule() async throws {
        let mixed = SandboxPermissionSet(
            nsid: "com.example.authMixed",
            publisher: "did:web:lexicons.sandbox.test",
            title: "Mixed",
            detail: "Permissions in and out of com.example.",
            permissions: [
                .repo(["com.example.note"]),
                .repo(["app.bsky.feed.post"]),
                .repo(["com.example.like", "app.bsky.feed.like"]),
                .repo(["*"]),
                .rpc(["com.example.getThing"], audience: "did:web:other.example#svc"),
                .rpc(["com.example.getOther"], inheritsAudience: true),
                .rpc(["com.example.listThings"], audience: "*"),
                .rpc(["app.bsky.feed.getTimeline"], audience: "*"),
                .blob(["image/*"]),
            ]
        )
        var configuration = SandboxConfiguration(autoApprove: true)
        configuration.permissionSets.append(mixed)
        try await withSandbox(configuration) { sandbox in
            let tokens = try await sandbox.client(registering: "atproto include:com.example.authMixed").signIn()
            #expect(tokens.scope == "atproto repo:com.example.note rpc:com.example.listThings?aud=* blob:image/*")
        }
    }

    /// A requested scope, what is withheld at sign-in and at refresh, and what each grants.
    struct Withholding: Sendable, CustomTestStringConvertible {
        var scope: String
        var atSignIn: [String]
        var signInGrant: String
        var atRefresh: [String]
        var refreshGrant: String

        var testDescription: String { "\(scope) withholding \(atSignIn), then \(atRefresh)" }
    }

    static let withholdings = [
        Withholding(
            scope: "atproto repo:app.bsky.feed.post?action=create blob:image/*",
            atSignIn: ["repo?collection=app.bsky.feed.post&action=create"],
            signInGrant: "atproto blob:image/*",
            atRefresh: ["blob:image/*", "atproto"],
            refreshGrant: "repo:app.bsky.feed.post?action=create"
        ),
        Withholding(
            scope: "atproto include:app.bsky.authCreatePosts?aud=\(appView)",
            atSignIn: ["rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview"],
            signInGrant: "atproto repo:app.bsky.feed.post?action=create",
            atRefresh: [],
            refreshGrant:
                "atproto repo:app.bsky.feed.post?action=create rpc:app.bsky.actor.getProfile?aud=\(appView)"
        ),
    ]

    @Test(
        "a withheld permission is missing from the grant, and a refresh grants from the request what is withheld then",
        arguments: withholdings
    )
    func withheldPermissions(_ withholding: Withholding) async throws {
        let configuration = SandboxConfiguration(autoApprove: true, withheldPermissions: withholding.atSignIn)
        try await withSandbox(configuration) { sandbox in
            let client = sandbox.client(registering: withholding.scope)
            let tokens = try await client.signIn()
            #expect(tokens.scope == withholding.signInGrant)

            let settings = try await client.send(
                HTTPRequest(
                    method: .post,
                    url: client.url(sandbox.endpoints.authorizationServer, "_sandbox/settings"),
                    headers: ["Content-Type": "application/json"],
                    body: try JSONSerialization.data(withJSONObject: ["withheldPermissions": withholding.atRefresh])
                )
            )
            #expect(try settings.json()["applied"] as? [String] == ["withheldPermissions"])
            let refreshed = try Tokens(try await client.refresh(tokens.refreshToken))
            #expect(refreshed.scope == withholding.refreshGrant)
        }
    }

    @Test("a refresh that asks for more than the original request is refused")
    func refreshCannotWiden() async throws {
        try await withSandbox { sandbox in
            let client = sandbox.client()
            let tokens = try await client.signIn()
            let widened = try await client.tokenRequest([
                ("grant_type", "refresh_token"), ("refresh_token", tokens.refreshToken),
                ("client_id", client.clientID), ("scope", "atproto repo:*"),
            ])
            #expect(widened.errorCode == "invalid_scope")
            let narrower = try await client.tokenRequest([
                ("grant_type", "refresh_token"), ("refresh_token", tokens.refreshToken),
                ("client_id", client.clientID), ("scope", "atproto"),
            ])
            #expect(try Tokens(narrower).scope == TestClientIdentity.scope)
        }
    }

    @Test("the consent page lists each requested permission on its own line in words, its token escaped beside")
    func consentPage() async throws {
        let scope = "atproto repo:app.bsky.feed.post?action=create&action=delete"
        try await withSandbox(SandboxConfiguration()) { sandbox in
            let client = sandbox.client(registering: scope)
            let requestURI = try await client.pushAuthorization(FlowSecrets())
            let page = try await client.openAuthorization(requestURI: requestURI).text
            #expect(page.contains("<li>use AT Protocol OAuth (required) <small><code>atproto</code></small></li>"))
            #expect(
                page.contains(
                    "<li>create and delete records of app.bsky.feed.post "
                        + "<small><code>repo:app.bsky.feed.post?action=create&amp;action=delete</code></small></li>"
                )
            )
        }
    }
}
