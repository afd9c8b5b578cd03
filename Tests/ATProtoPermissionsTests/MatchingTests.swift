import ATProtoPermissions
import Testing

@Suite("A grant allows what its permissions and the transitional scopes cover")
struct MatchingTests {
    static let appview = "did:web:api.bsky.app#bsky_appview"
    static let chat = "did:web:api.bsky.chat#bsky_chat"

    /// Repo permissions match by collection and action.
    static let repo: [(String, Check, Bool)] = [
        ("repo:*", .repo("com.example.foo", .create), true),
        ("repo:*", .repo("app.bsky.feed.post", .delete), true),
        ("repo:*?action=create", .repo("app.bsky.feed.post", .create), true),
        ("repo:*?action=create", .repo("app.bsky.feed.post", .update), false),
        ("repo:com.example.foo?action=create", .repo("com.example.foo", .create), true),
        ("repo:com.example.foo?action=create", .repo("com.example.foo", .delete), false),
        ("repo:com.example.foo?action=create", .repo("app.bsky.feed.post", .create), false),
        ("repo?collection=a.b.c&collection=d.e.f", .repo("d.e.f", .update), true),
        ("repo:app.bsky.feed.post", .repo("app.bsky.feed.Post", .create), false),
        ("transition:generic", .repo("com.example.foo", .update), true),
        ("atproto", .repo("app.bsky.feed.post", .create), false),
    ]

    /// RPC permissions match by method and audience, with wildcards on either.
    static let rpc: [(String, Check, Bool)] = [
        ("rpc:app.bsky.feed.getFeed?aud=*", .rpc("app.bsky.feed.getFeed", appview), true),
        (
            "rpc:app.bsky.feed.getFeed?aud=*", .rpc("app.bsky.feed.getFeed", "did:plc:ewvi7nxzyoun6zhxrhs64oiz#svc"),
            true
        ),
        ("rpc:app.bsky.feed.getFeed?aud=*", .rpc("com.example.method", appview), false),
        ("rpc:*?aud=did:web:api.bsky.app%23bsky_appview", .rpc("com.example.method", appview), true),
        ("rpc:*?aud=did:web:api.bsky.app%23bsky_appview", .rpc("com.example.method", chat), false),
        (
            "rpc:*?aud=did:web:api.bsky.app%23bsky_appview",
            .rpc("com.example.method", "did:web:api.bsky.app#other"), false
        ),
        (
            "rpc:app.bsky.feed.getFeed?aud=did:web:api.bsky.app%23bsky_appview",
            .rpc("app.bsky.feed.getFeed", appview), true
        ),
        (
            "rpc:app.bsky.feed.getFeed?aud=did:web:api.bsky.app%23bsky_appview",
            .rpc("app.bsky.feed.getFeed", chat), false
        ),
        ("rpc?lxm=a.b.c&lxm=d.e.f&aud=*", .rpc("d.e.f", chat), true),
        ("rpc:app.bsky.feed.getFeed?aud=*", .rpc("app.bsky.feed.getfeed", appview), false),
    ]

    /// Blob permissions match MIME types and their globs, without regard to case.
    static let blob: [(String, Check, Bool)] = [
        ("blob:*/*", .blob("image/png"), true),
        ("blob:*/*", .blob("application/json"), true),
        ("blob:image/*", .blob("image/png"), true),
        ("blob:image/*", .blob("IMAGE/PNG"), true),
        ("blob:image/*", .blob("video/mp4"), false),
        ("blob:image/png", .blob("image/png"), true),
        ("blob:image/png", .blob("image/jpeg"), false),
        ("blob?accept=video/*&accept=text/html", .blob("video/mp4"), true),
        ("blob?accept=video/*&accept=text/html", .blob("text/plain"), false),
        ("blob:image/*", .blob("image/*"), false),
        ("blob:*/*", .blob("not a mime"), false),
        ("transition:generic", .blob("video/mp4"), true),
        ("blob:*", .blob("image/png"), false),
    ]

    /// Account and identity permissions match by attribute; manage includes read and identity:* includes all.
    static let accountAndIdentity: [(String, Check, Bool)] = [
        ("account:email", .account(.email, .read), true),
        ("account:email", .account(.email, .manage), false),
        ("account:email", .account(.repo, .read), false),
        ("account:email?action=manage", .account(.email, .read), true),
        ("account:email?action=manage", .account(.email, .manage), true),
        ("account:repo?action=manage", .account(.repo, .manage), true),
        ("account:email", .account(AccountPermission.Attribute(rawValue: "status"), .read), false),
        ("identity:handle", .identity(.handle), true),
        ("identity:handle", .identity(.all), false),
        ("identity:*", .identity(.handle), true),
        ("identity:*", .identity(.all), true),
    ]

    /// Transitional scopes: generic covers all but chat.bsky methods, chat.bsky covers those, email reads the email.
    static let transitional: [(String, Check, Bool)] = [
        ("transition:generic", .rpc("app.bsky.feed.getTimeline", appview), true),
        ("transition:generic", .rpc("com.example.foo", "did:plc:ewvi7nxzyoun6zhxrhs64oiz#svc"), true),
        ("transition:generic", .rpc("chat.bsky.convo.sendMessage", chat), false),
        ("transition:chat.bsky", .rpc("chat.bsky.convo.sendMessage", chat), true),
        ("transition:chat.bsky", .rpc("app.bsky.feed.getTimeline", appview), false),
        ("transition:chat.bsky", .repo("app.bsky.feed.post", .create), false),
        ("transition:email", .account(.email, .read), true),
        ("transition:email", .account(.email, .manage), false),
        ("transition:email", .account(.repo, .read), false),
        ("transition:generic", .account(.email, .read), false),
        ("transition:generic", .identity(.handle), false),
    ]

    @Test(
        "a grant allows exactly what its permissions and the transitional scopes cover",
        arguments: repo + rpc + blob + accountAndIdentity + transitional
    )
    func allows(_ scope: String, _ check: Check, _ expected: Bool) throws {
        #expect(try check.ask(ScopeSet(granted: scope)) == expected)
    }

    @Test(
        "unrecognized tokens, includes, spaces and atproto grant nothing",
        arguments: [
            "atproto", "Repo:*", "repo:*%2", "repo:*?action=Create", "rpc:*?aud=*", "blob:*", "transition:everything",
            "include:app.bsky.authFull", "space:*", "identity:Handle", "account:Email",
        ]
    )
    func grantsNothing(_ scope: String) throws {
        let granted = ScopeSet(granted: scope)
        let checks: [Check] = [
            .repo("app.bsky.feed.post", .create), .rpc("app.bsky.feed.getFeed", Self.appview), .blob("image/png"),
            .account(.email, .read), .identity(.handle),
        ]
        for check in checks {
            #expect(try !check.ask(granted), "\(scope) must not allow \(check.testDescription)")
        }
    }
}
