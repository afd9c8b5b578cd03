import ATProtoPermissions
import Testing

@Suite("A requested scope is parsed strictly and a granted scope leniently")
struct ScopeSetParsingTests {
    @Test(
        "a bad token in a request throws an error that names it and says what is wrong",
        arguments: [
            (
                "atproto repo:app.bsky.feed.post rpc:app.bsky.feed.getFeed", "rpc:app.bsky.feed.getFeed",
                PermissionError.Code.missingParameter
            ),
            ("atproto Repo:*", "Repo:*", .unknownResource),
            ("atproto repo:*?collections=a.b.c", "repo:*?collections=a.b.c", .unknownParameter),
            (
                "atproto account:email?action=read&action=manage", "account:email?action=read&action=manage",
                .repeatedParameter
            ),
            ("atproto rpc?lxm=*&aud=*", "rpc?lxm=*&aud=*", .conflictingParameters),
            ("atproto blob:image", "blob:image", .invalidValue),
            ("atproto repo:a.b.c%zz", "repo:a.b.c%zz", .malformed),
            ("atproto transition:generic?x=1", "transition:generic?x=1", .malformed),
            ("atproto\trepo:*", "atproto\trepo:*", .malformed),
            // An audience AT Protocol cannot resolve, which the reference server drops (atproto.com/specs/did).
            ("atproto rpc:a.b.c?aud=did:foo:bar%23svc", "rpc:a.b.c?aud=did:foo:bar%23svc", .invalidValue),
            ("atproto rpc:a.b.c?aud=did:plc:111%23svc", "rpc:a.b.c?aud=did:plc:111%23svc", .invalidValue),
            (
                "atproto rpc:a.b.c?aud=did:web:example.com:u:alice%23svc",
                "rpc:a.b.c?aud=did:web:example.com:u:alice%23svc", .invalidValue
            ),
            (
                "atproto rpc:a.b.c?aud=did:web:example.com%253A8443%23svc",
                "rpc:a.b.c?aud=did:web:example.com%253A8443%23svc", .invalidValue
            ),
            (
                "atproto include:a.b.c?aud=did:web:localhost%253a3000%23svc",
                "include:a.b.c?aud=did:web:localhost%253a3000%23svc", .invalidValue
            ),
        ]
    )
    func strictError(_ scope: String, _ badToken: String, _ code: PermissionError.Code) throws {
        let error = try #require(throws: PermissionError.self) { try ScopeSet(requested: scope) }
        #expect(error.code == code)
        #expect(error.description.hasPrefix("Invalid permission scope “"))
        #expect(error.description.hasSuffix("."))
        #expect(error.token == badToken.filter { $0 != "\t" })
    }

    @Test(
        "an audience is a did:plc or a host-name did:web, with a port only for localhost",
        arguments: [
            "rpc:a.b.c?aud=did:plc:ewvi7nxzyoun6zhxrhs64oiz%23atproto_labeler",
            "rpc:a.b.c?aud=did:web:localhost%253A3000%23svc", "include:a.b.c?aud=did:web:api.bsky.app%23bsky_appview",
        ]
    )
    func resolvableAudience(_ token: String) throws {
        #expect(try Permission(parsing: token).description == token)
    }

    @Test("an error quotes a token without its line or paragraph separators or bidi controls")
    func separatorsAreNotQuoted() throws {
        let error = try #require(throws: PermissionError.self) {
            try Permission(parsing: "repo:a.b.c?action=create\u{2028}\u{2029}\u{202E}x")
        }
        #expect(error.token == "repo:a.b.c?action=createx")
        #expect(!error.description.unicodeScalars.contains { [0x2028, 0x2029, 0x202E].contains($0.value) })
    }

    @Test("an error quotes at most 200 characters of a long token")
    func longTokenIsShortened() throws {
        let token = "repo:" + String(repeating: "x", count: 1_000)
        let error = try #require(throws: PermissionError.self) { try Permission(parsing: token) }
        #expect(error.token.count == 201)
        #expect(error.token.hasSuffix("…"))
        #expect(error.description.count < 400)
    }

    @Test("a grant keeps tokens it cannot parse and is then not fully understood")
    func lenientGrant() {
        let scope = ScopeSet(granted: "atproto repo:* account:status future:thing repo:*")
        #expect(scope.permissions.map(\.description) == ["atproto", "repo:*"])
        #expect(scope.unrecognized == ["account:status", "future:thing"])
        #expect(scope.description == "atproto repo:* account:status future:thing")
        #expect(!scope.isFullyUnderstood)
    }

    @Test(
        "a grant is fully understood only without unrecognized, include or space tokens",
        arguments: [
            ("atproto transition:generic repo:* blob:*/*", true),
            ("", true),
            ("atproto include:app.example.authFull", false),
            ("atproto space:com.example.forum", false),
            ("atproto whatever", false),
        ]
    )
    func fullyUnderstood(_ scope: String, _ expected: Bool) {
        #expect(ScopeSet(granted: scope).isFullyUnderstood == expected)
    }

    @Test("repeated spaces between tokens are ignored and an empty scope is an empty set")
    func spacing() throws {
        #expect(try ScopeSet(requested: "  atproto   repo:*  ").description == "atproto repo:*")
        #expect(try ScopeSet(requested: "").isEmpty)
    }

    @Test("typed builders refuse what the parser would refuse")
    func typedBuildersRefuse() throws {
        let bothWild = #expect(throws: PermissionError.self) { try RPCPermission(methods: [.any], audience: .any) }
        #expect(bothWild?.code == .conflictingParameters)
        #expect(throws: PermissionError.self) { try RepoPermission(collections: []) }
        #expect(throws: PermissionError.self) { try RepoPermission(collections: [.any], actions: []) }
        #expect(throws: PermissionError.self) { try BlobPermission(accept: []) }
        #expect(throws: PermissionError.self) {
            try AccountPermission(attribute: AccountPermission.Attribute(rawValue: "status"))
        }
        #expect(throws: PermissionError.self) {
            try IdentityPermission(attribute: IdentityPermission.Attribute(rawValue: "did"))
        }
    }

    @Test("permissions expose their resource and typed parts")
    func typedAccess() throws {
        let include = try Permission(parsing: "include:app.example.authFull?aud=did:web:a.com%23svc")
        #expect(include.resource == .include)
        #expect(include.include?.audience?.serviceID == "svc")
        #expect(!include.isUnderstoodLocally)
        let space = try Permission(parsing: "space:com.example.forum?authority=self&action=read_self")
        #expect(space.space?.actions == [.readSelf])
        #expect(space.space?.authority == "self")
        #expect(try Permission(parsing: "transition:generic").resource == .transition)
        #expect(try Permission(parsing: "repo:*").repo?.collections == [.any])
    }
}
