import Foundation
import Keystore
import PostgresStore
import Testing

@Suite("PostgresStore keeps entries as the file store does")
struct KeystoreBehaviourTests {
    @Test("save, load, replace and delete; names sorted; a missing entry is nil")
    func roundTrip() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                #expect(try await store.load("session/did:plc:aaa") == nil)
                try await store.save(Data("one".utf8), as: "session/did:plc:aaa")
                try await store.save(Data("key".utf8), as: "dpop-key/did:plc:aaa")
                try await store.save(Data("did:plc:aaa".utf8), as: "accounts/active")
                try await store.save(Data("state".utf8), as: "pending/xyz")
                try await store.save(Data("note".utf8), as: "refreshing/did:plc:aaa")
                try await store.save(Data("other".utf8), as: "accounts/other")
                try await store.save(Data("two".utf8), as: "session/did:plc:aaa")
                #expect(try await store.load("session/did:plc:aaa") == Data("two".utf8))
                #expect(
                    try await store.names() == [
                        "accounts/active", "accounts/other", "dpop-key/did:plc:aaa", "pending/xyz",
                        "refreshing/did:plc:aaa", "session/did:plc:aaa",
                    ]
                )
                try await store.delete("session/did:plc:aaa")
                try await store.delete("session/did:plc:never")
                #expect(try await store.load("session/did:plc:aaa") == nil)
                #expect(try await store.load("dpop-key/did:plc:aaa") == Data("key".utf8))
            }
        }
    }

    @Test("each kind of entry lands in its own table, keyed by DID, state or name")
    func tables() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await store.save(Data("s".utf8), as: "session/did:plc:aaa")
                try await store.save(Data("k".utf8), as: "dpop-key/did:plc:aaa")
                try await store.save(Data("a".utf8), as: "accounts/active")
                try await store.save(Data("p".utf8), as: "pending/state-1")
                try await store.save(Data("x".utf8), as: "custom")
            }
            #expect(try await fixture.sql("SELECT did FROM atoauth_sessions") == "did:plc:aaa")
            #expect(try await fixture.sql("SELECT did FROM atoauth_dpop_keys") == "did:plc:aaa")
            #expect(try await fixture.sql("SELECT slot FROM atoauth_active_account") == "active")
            #expect(try await fixture.sql("SELECT state FROM atoauth_pending_sign_ins") == "state-1")
            #expect(try await fixture.sql("SELECT name FROM atoauth_entries") == "custom")
            #expect(
                try await fixture.sql("SELECT did || ' ' || has_dpop_key FROM atoauth_accounts") == "did:plc:aaa true"
            )
        }
    }

    @Test("the revision changes with every save and delete, by any store on the database")
    func revisions() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { first in
                try await fixture.withStore { second in
                    #expect(try await first.revision(of: "session/did:plc:aaa") == .absent)
                    try await first.save(Data("1".utf8), as: "session/did:plc:aaa")
                    let one = try await first.revision(of: "session/did:plc:aaa")
                    #expect(one != .absent && one != nil)
                    #expect(try await second.revision(of: "session/did:plc:aaa") == one)
                    try await second.save(Data("2".utf8), as: "session/did:plc:aaa")
                    let two = try await first.revision(of: "session/did:plc:aaa")
                    #expect(two != one)
                    try await second.delete("session/did:plc:aaa")
                    #expect(try await first.revision(of: "session/did:plc:aaa") == .absent)
                }
            }
        }
    }

    @Test("names the file store refuses are refused here too, before reaching the database")
    func invalidNames() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                await #expect(throws: KeystoreError.invalidName) { try await store.save(Data(), as: "") }
                let long = String(repeating: "x", count: 201)
                await #expect(throws: KeystoreError.invalidName) { try await store.load(long) }
                await #expect(throws: KeystoreError.invalidName) { try await store.withLock(long) {} }
            }
        }
    }
}
