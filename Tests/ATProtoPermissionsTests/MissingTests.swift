import ATProtoPermissions
import Testing

@Suite("A grant lacks the requested permissions it does not cover")
struct MissingTests {
    @Test(
        "missing lists the requested tokens the grant does not cover, in requested order",
        arguments: [
            ("atproto repo:*", "atproto repo:app.bsky.feed.post?action=create", ""),
            (
                "atproto transition:generic",
                "atproto repo:app.bsky.feed.post?action=create blob:image/* "
                    + "rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview",
                ""
            ),
            (
                "atproto transition:generic",
                "atproto rpc:chat.bsky.convo.getLog?aud=did:web:api.bsky.chat%23bsky_chat",
                "rpc:chat.bsky.convo.getLog?aud=did:web:api.bsky.chat%23bsky_chat"
            ),
            ("atproto blob:image/png", "atproto blob:image/*", "blob:image/*"),
            ("atproto blob:*/*", "blob?accept=image/*&accept=video/mp4", ""),
            ("atproto repo:app.bsky.feed.post?action=create", "repo:app.bsky.feed.post", "repo:app.bsky.feed.post"),
            ("repo?collection=a.b.c&collection=d.e.f", "repo?collection=a.b.c&collection=d.e.f&action=create", ""),
            ("repo:a.b.c", "repo:*?action=create", "repo:*?action=create"),
            // The server expands an include into the set's permissions: never reported.
            ("atproto repo:app.example.post", "atproto include:app.example.authFull", ""),
            ("include:app.example.authFull", "include?nsid=app.example.authFull", ""),
            ("account:email", "transition:email", "transition:email"),
            ("transition:email", "account:email", ""),
            ("account:email?action=manage", "account:email", ""),
            ("account:email", "account:email?action=manage", "account:email?action=manage"),
            ("identity:handle", "identity:*", "identity:*"),
            ("transition:generic", "rpc:*?aud=did:web:a.com%23x", "rpc:*?aud=did:web:a.com%23x"),
            ("transition:generic transition:chat.bsky", "rpc:*?aud=did:web:a.com%23x", ""),
            ("rpc:*?aud=did:web:a.com%23x", "rpc?lxm=a.b.c&lxm=d.e.f&aud=did:web:a.com%23x", ""),
            (
                "rpc:a.b.c?aud=*", "rpc?lxm=a.b.c&lxm=d.e.f&aud=did:web:a.com%23x",
                "rpc?lxm=a.b.c&lxm=d.e.f&aud=did:web:a.com%23x"
            ),
            ("space:com.example.forum", "space?spaceType=com.example.forum", ""),
            ("atproto", "space:com.example.forum", "space:com.example.forum"),
            ("", "atproto", "atproto"),
        ]
    )
    func missing(_ granted: String, _ requested: String, _ expected: String) {
        let grant = ScopeSet(granted: granted)
        let request = ScopeSet(granted: requested)
        #expect(grant.missing(from: request).description == expected)
    }

    @Test("an unrecognized requested token is covered only by the same text in the grant")
    func unrecognized() {
        let request = ScopeSet(granted: "atproto future:thing")
        #expect(ScopeSet(granted: "atproto future:thing").missing(from: request).isEmpty)
        #expect(ScopeSet(granted: "atproto repo:*").missing(from: request).description == "future:thing")
    }

    @Test("covers agrees with the allows checks for a single concrete permission")
    func coversAgreesWithAllows() throws {
        let grant = ScopeSet(granted: "atproto repo:*?action=create blob:image/*")
        #expect(grant.covers(try Permission(parsing: "repo:app.bsky.feed.post?action=create")))
        #expect(!grant.covers(try Permission(parsing: "repo:app.bsky.feed.post?action=delete")))
        #expect(grant.covers(try Permission(parsing: "blob:image/png")))
        #expect(!grant.covers(try Permission(parsing: "blob:*/*")))
    }
}
