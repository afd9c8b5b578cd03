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
        try admit(alice, [like])
        #expect(throws: GatewayRefusal.self) { try admit(bob, [like]) }
        do {
            try admit(alice, [post])
            Issue.record("a post was admitted")
        } catch let refusal as GatewayRefusal {
            #expect(refusal.status == 403 && refusal.name == "ScopeMissingError")
            #expect(refusal.message.contains("repo:app.bsky.feed.post?action=create"))
        }
        do {
            try admit(alice, [])
            Issue.record("a procedure whose permission cannot be read was admitted")
        } catch let refusal as GatewayRefusal {
            #expect(refusal.name == "ScopeMissingError")
        }
        let read = try #require(
            grant.admission(nsid: try NSID(validating: "com.atproto.repo.listRecords"), isProcedure: false)
        )
        try read(alice, [])
    }
}
