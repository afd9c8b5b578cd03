import ATOAuthTesting
import Foundation
import PostgresStore
import Testing

@Suite("The store creates, versions and guards its tables")
struct SchemaTests {
    @Test("an empty database gets the tables and schema version 1; opening it again changes nothing")
    func creation() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { _ in }
            #expect(try await fixture.sql("SELECT version FROM atoauth_schema") == "1")
            let upgraded = try await fixture.sql("SELECT upgraded_at FROM atoauth_schema")
            try await fixture.withStore { _ in }
            #expect(try await fixture.sql("SELECT upgraded_at FROM atoauth_schema") == upgraded)
            let tables = try await fixture.sql(
                "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE tablename LIKE 'atoauth_%'"
            )
            #expect(
                tables == "atoauth_active_account,atoauth_dpop_keys,atoauth_entries,atoauth_pending_sign_ins,"
                    + "atoauth_refresh_notes,atoauth_schema,atoauth_sessions,atoauth_store_key"
            )
        }
    }

    @Test("a schema newer than the code is refused with a message that says to upgrade, and left as it is")
    func newerSchema() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in try await store.save(Data("x".utf8), as: "session/did:plc:aaa") }
            try await fixture.sql("UPDATE atoauth_schema SET version = 7")
            let error = await #expect(throws: PostgresStoreError.schemaTooNew) { try await fixture.withStore { _ in } }
            #expect(error?.description.contains("schema version 7") == true)
            #expect(error?.description.contains("knows versions up to 1") == true)
            #expect(error?.description.contains("Upgrade atoauth") == true)
            #expect(try await fixture.sql("SELECT version FROM atoauth_schema") == "7")
            #expect(try await fixture.sql("SELECT count(*) FROM atoauth_sessions") == "1")
        }
    }

    @Test("a schema version below zero is refused at once as damaged, and nothing is migrated or changed")
    func negativeVersion() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in try await store.save(Data("x".utf8), as: "session/did:plc:aaa") }
            try await fixture.sql("UPDATE atoauth_schema SET version = -1")
            // Another process holds the migration lock meanwhile: a store that waited for it would end on its time limit
            // instead, so the refusal itself shows that nothing waited for the lock.
            let migrationLock = "hashtextextended('atoauth schema migration', \(0x6174_6f61))"
            let holder = try fixture.server.startSession(
                "SELECT pg_advisory_xact_lock(\(migrationLock)); SELECT pg_sleep(300)",
                database: fixture.database.name
            )
            defer { holder.terminate() }
            try await Waiting.until("another session to hold the migration lock") {
                try await fixture.sql(
                    """
                    SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
                    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    """
                ) == "1"
            }
            let error = await #expect(throws: PostgresStoreError.schemaDamaged) { try await fixture.withStore { _ in } }
            try await fixture.server.endSessions(holdingAdvisoryLocksOn: fixture.database.name)
            #expect(error?.description.contains("records version -1") == true, "\(error?.description ?? "")")
            #expect(try await fixture.sql("SELECT version FROM atoauth_schema") == "-1")
            #expect(try await fixture.sql("SELECT count(*) FROM atoauth_sessions") == "1")
        }
    }

    @Test("eight processes opening an empty database at once create the schema once, without an error")
    func concurrentMigration() async throws {
        try await StoreFixture.with { fixture in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { try await fixture.withStore { _ in } } }
                try await group.waitForAll()
            }
            #expect(try await fixture.sql("SELECT count(*) || ' ' || max(version) FROM atoauth_schema") == "1 1")
        }
    }
}
