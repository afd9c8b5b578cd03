import ATProtoPermissions
import Testing

@Suite("Permissions and scope sets have one canonical string")
struct CanonicalFormTests {
    @Test(
        "a permission is written positionally when it has one value, without defaults, in a fixed order",
        arguments: [
            ("repo?collection=app.bsky.feed.post", "repo:app.bsky.feed.post"),
            (
                "repo:app.bsky.feed.post?action=delete&action=create",
                "repo:app.bsky.feed.post?action=create&action=delete"
            ),
            (
                "repo?action=create&collection=b.b.b&collection=a.a.a&collection=b.b.b",
                "repo?collection=a.a.a&collection=b.b.b&action=create"
            ),
            ("repo?collection=a.a.a&collection=*", "repo:*"),
            ("repo:a.a.a?action=update&action=update", "repo:a.a.a?action=update"),
            ("rpc?aud=*&lxm=app.bsky.feed.getFeed", "rpc:app.bsky.feed.getFeed?aud=*"),
            (
                "rpc:app.bsky.feed.getFeed?aud=did:web:api.bsky.app#bsky_appview",
                "rpc:app.bsky.feed.getFeed?aud=did:web:api.bsky.app%23bsky_appview"
            ),
            ("rpc?lxm=*&lxm=a.a.a&aud=did%3Aweb%3Aa.com%23x", "rpc:*?aud=did:web:a.com%23x"),
            ("blob?accept=IMAGE/PNG", "blob:image/png"),
            ("blob?accept=image/png&accept=image/*&accept=text/html", "blob?accept=image/*&accept=text/html"),
            ("blob?accept=video/*&accept=*/*", "blob:*/*"),
            ("blob:image/svg+xml", "blob:image/svg+xml"),
            ("blob?accept=image/svg%2Bxml&accept=text/html", "blob?accept=image/svg%2Bxml&accept=text/html"),
            ("account?action=read&attr=email", "account:email"),
            ("account?action=manage&attr=repo", "account:repo?action=manage"),
            ("identity?attr=*", "identity:*"),
            ("identity:handle?", "identity:handle"),
            (
                "include?aud=did:web:a.com%23svc&nsid=com.example.authFull",
                "include:com.example.authFull?aud=did:web:a.com%23svc"
            ),
            (
                "space?manage=delete&spaceType=com.example.forum&manage=create",
                "space:com.example.forum?manage=create&manage=delete"
            ),
            ("atproto", "atproto"),
            ("transition:chat.bsky", "transition:chat.bsky"),
        ]
    )
    func permission(_ input: String, _ canonical: String) throws {
        #expect(try Permission(parsing: input).description == canonical)
    }

    @Test("positional and named forms are the same permission")
    func positionalEqualsNamed() throws {
        #expect(try Permission(parsing: "repo:a.b.c") == Permission(parsing: "repo?collection=a.b.c"))
        #expect(try Permission(parsing: "account:email") == Permission(parsing: "account:email?action=read"))
        #expect(try Permission(parsing: "rpc:a.b.c?aud=*") != Permission(parsing: "rpc:a.b.d?aud=*"))
    }

    @Test("a scope set keeps the first appearance of each token and drops canonical repeats")
    func scopeSetOrderAndRepeats() throws {
        let scope = try ScopeSet(
            requested: "atproto repo:b.b.b repo?collection=b.b.b blob:*/* atproto  repo:a.a.a?action=create"
        )
        #expect(scope.description == "atproto repo:b.b.b blob:*/* repo:a.a.a?action=create")
        #expect(scope.tokens.count == 4)
    }

    @Test("scope sets with the same tokens in another order are equal")
    func equalityIgnoresOrder() throws {
        let one = try ScopeSet(requested: "atproto blob:*/* repo:*")
        let other = ScopeSet(granted: "repo:* atproto blob?accept=*/*")
        #expect(one == other)
        #expect(Set([one, other]).count == 1)
    }

    @Test("typed permissions build the same strings the parser reads")
    func typedBuilders() throws {
        let post = try #require(NSIDPattern("app.bsky.feed.post"))
        let repo = try RepoPermission(collections: [post], actions: [.create])
        #expect(repo.description == "repo:app.bsky.feed.post?action=create")
        let service = try #require(ServiceReference(rawValue: "did:web:api.bsky.app#bsky_appview"))
        let rpc = try RPCPermission(methods: [.any], audience: .service(service))
        #expect(rpc.description == "rpc:*?aud=did:web:api.bsky.app%23bsky_appview")
        let blob = try BlobPermission(accept: [try #require(MediaTypePattern(rawValue: "image/*"))])
        let scope = ScopeSet([.atproto, Permission(repo), Permission(rpc), Permission(blob)])
        #expect(try ScopeSet(requested: scope.description) == scope)
    }
}
