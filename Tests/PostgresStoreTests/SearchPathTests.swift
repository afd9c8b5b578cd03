import ATOAuthTesting
import Foundation
import Keystore
import PostgresStore
import Testing

@Suite("the store's statements reach its own tables and PostgreSQL's functions, whatever the search_path says")
struct SearchPathTests {
    /// The tables holding entries, which a hostile schema copies empty.
    static let entryTables = [
        "atoauth_sessions", "atoauth_dpop_keys", "atoauth_refresh_notes", "atoauth_pending_sign_ins",
        "atoauth_active_account", "atoauth_entries",
    ]

    @Test("a schema put first on the database's search_path, with the store's tables and a now(), gets nothing")
    func hostileSchemaFirst() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { try await $0.save(Data("before".utf8), as: "session/did:plc:before") }
            // A neighbour copies the version and key rows, so a redirected store would open and carry on unaware.
            let copies = (["atoauth_schema", "atoauth_store_key"] + Self.entryTables).map {
                "CREATE TABLE evil.\($0) (LIKE public.\($0) INCLUDING ALL);"
            }
            try await fixture.sql(
                "CREATE SCHEMA evil; \(copies.joined(separator: " "))"
                    + "INSERT INTO evil.atoauth_schema SELECT * FROM public.atoauth_schema;"
                    + "INSERT INTO evil.atoauth_store_key SELECT * FROM public.atoauth_store_key;"
                    + "CREATE FUNCTION evil.now() RETURNS timestamptz LANGUAGE sql AS $$ SELECT timestamptz '2000-01-01' $$;"
                    + "ALTER DATABASE \(fixture.database.name) SET search_path = evil, pg_catalog, public;"
            )
            try await fixture.withStore { store in
                #expect(try await store.load("session/did:plc:before") == Data("before".utf8))
                try await store.save(Data("after".utf8), as: "session/did:plc:after")
                try await store.withLock("note") {
                    #expect(try await store.load("session/did:plc:after") == Data("after".utf8))
                    try await store.save(Data("locked".utf8), as: "note")
                }
                #expect(try await store.names() == ["note", "session/did:plc:after", "session/did:plc:before"])
            }
            let evilRows = Self.entryTables.map { "(SELECT count(*) FROM evil.\($0))" }.joined(separator: " + ")
            #expect(try await fixture.sql("SELECT \(evilRows)") == "0")
            #expect(
                try await fixture.sql("SELECT string_agg(did, ',' ORDER BY did) FROM public.atoauth_sessions")
                    == "did:plc:after,did:plc:before"
            )
            #expect(try await fixture.sql("SELECT string_agg(name, ',') FROM public.atoauth_entries") == "note")
            #expect(try await fixture.sql("SELECT min(written_at) > '2001-01-01' FROM public.atoauth_sessions") == "t")
        }
    }

    @Test("a store in the schema named after its user, which the user owns, stays there")
    func ownSchema() async throws {
        try await StoreFixture.with { fixture in
            // As PostgreSQL's default search_path ("$user", public) put it before the path was pinned.
            try await fixture.sql("CREATE SCHEMA \(fixture.server.user) AUTHORIZATION \(fixture.server.user)")
            try await fixture.withStore { try await $0.save(Data("s".utf8), as: "session/did:plc:aaa") }
            try await fixture.sql("ALTER DATABASE \(fixture.database.name) SET search_path = public")
            let stored = try await fixture.withStore { try await $0.load("session/did:plc:aaa") }
            #expect(stored == Data("s".utf8))
            #expect(try await fixture.sql("SELECT count(*) FROM \(fixture.server.user).atoauth_sessions") == "1")
            #expect(try await fixture.sql("SELECT to_regclass('public.atoauth_sessions') IS NULL") == "t")
        }
    }
}
