import ATClient
import ATProtoPermissions
import ATProtoSyntax
import Testing

@testable import Gateway

/// What a token's grant admits, judged without I/O from the account a call goes out as and the permissions the
/// pre-flight check computes for it.
@Suite("A token's grant admits only its accounts and the calls its permissions cover")
struct TokenGrantTests {
    let alice: DID
    let bob: DID

    init() throws {
        alice = try DID(validating: "did:plc:aliceaaaaaaaaaaaaaaaaaaa")
        bob = try DID(validating: "did:plc:bobbbbbbbbbbbbbbbbbbbbbb")
    }

    static func permission(_ text: String) throws -> Permission { try Permission(parsing: text) }

    @Test("an unrestricted grant judges nothing; one account is the default")
    func defaults() throws {
        let open = TokenGrant(name: "startup", accounts: nil, scope: nil)
        #expect(open.admission(nsid: try NSID(validating: "com.atproto.repo.createRecord"), isProcedure: true) == nil)
        #expect(open.fallback(otherwise: nil) == nil)
        let bobOnly = TokenGrant(name: "b", accounts: [bob], scope: nil)
        #expect(bobOnly.fallback(otherwise: .did(alice)) == .did(bob))
        let both = TokenGrant(name: "ab", accounts: [alice, bob], scope: nil)
        #expect(both.fallback(otherwise: nil) == nil)
    }

    @Test("another account is AccountNotAllowed; a permission the scope lacks is ScopeMissingError naming it")
    func refusals() throws {
        let like = try Self.permission("repo:app.bsky.feed.like?action=create")
        let post = try Self.permission("repo:app.bsky.feed.post?action=create")
        let grant = TokenGrant(name: "liker", accounts: [alice], scope: ScopeSet([like]))
        let create = try NSID(validating: "com.atproto.repo.createRecord")
        let admit = try #require(grant.admission(nsid: create, isProcedure: true))
        try admit(alice, CallNeeds(permissions: [like]))
        #expect(throws: GatewayRefusal.self) { try admit(bob, CallNeeds(permissions: [like])) }
        do {
            try admit(alice, CallNeeds(permissions: [post]))
            Issue.record("a post was admitted")
        } catch let refusal as GatewayRefusal {
            #expect(refusal.status == 403 && refusal.name == "ScopeMissingError")
            #expect(refusal.message.contains("repo:app.bsky.feed.post?action=create"))
        }
        do {
            try admit(alice, CallNeeds())
            Issue.record("a procedure whose permission cannot be read was admitted")
        } catch let refusal as GatewayRefusal {
            #expect(refusal.name == "ScopeMissingError")
        }
        let read = try #require(
            grant.admission(nsid: try NSID(validating: "com.atproto.repo.listRecords"), isProcedure: false)
        )
        try read(alice, CallNeeds())
    }

    @Test("a limited grant refuses what a PDS lends to no grant, and an unnamed service without rpc at any audience")
    func pdsChoices() throws {
        let profile = try Self.permission("rpc:app.bsky.actor.getProfile?aud=*")
        let grant = TokenGrant(name: "reader", accounts: nil, scope: ScopeSet([profile]))
        let method = try NSID(validating: "com.example.feed.getSecrets")
        let admit = try #require(grant.admission(nsid: method, isProcedure: false))
        let anywhere = try Self.permission("rpc:com.example.feed.getSecrets?aud=*")
        do {
            try admit(alice, CallNeeds(anyService: anywhere))
            Issue.record("a call to a service the PDS chooses was admitted")
        } catch let refusal as GatewayRefusal {
            #expect(refusal.name == "ScopeMissingError" && refusal.message.contains("atproto-proxy"))
        }
        let wide = TokenGrant(name: "any", accounts: nil, scope: ScopeSet([anywhere]))
        let wideAdmit = try #require(wide.admission(nsid: method, isProcedure: false))
        try wideAdmit(alice, CallNeeds(anyService: anywhere))
        do {
            try admit(alice, CallNeeds(lentToNoGrant: true))
            Issue.record("a method lent to no grant was admitted")
        } catch let refusal as GatewayRefusal {
            #expect(refusal.status == 403 && refusal.message.contains("no OAuth grant"))
        }
        let accountsOnly = TokenGrant(name: "alice", accounts: [alice], scope: nil)
        let accountsAdmit = try #require(accountsOnly.admission(nsid: method, isProcedure: false))
        try accountsAdmit(alice, CallNeeds(lentToNoGrant: true))
    }

    @Test("getSession hides the email from a limited grant that may not read it")
    func email() throws {
        let getSession = try NSID(validating: "com.atproto.server.getSession")
        let profile = try Self.permission("rpc:app.bsky.actor.getProfile?aud=*")
        #expect(TokenGrant(name: "r", accounts: nil, scope: ScopeSet([profile])).hidesEmail(from: getSession))
        let mail = ScopeSet([profile, try Self.permission("account:email")])
        #expect(!TokenGrant(name: "m", accounts: nil, scope: mail).hidesEmail(from: getSession))
        #expect(!TokenGrant(name: "o", accounts: [alice], scope: nil).hidesEmail(from: getSession))
        let listRecords = try NSID(validating: "com.atproto.repo.listRecords")
        #expect(!TokenGrant(name: "r", accounts: nil, scope: ScopeSet([profile])).hidesEmail(from: listRecords))
    }
}
