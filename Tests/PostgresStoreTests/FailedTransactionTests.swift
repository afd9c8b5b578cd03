import Foundation
import Keystore
import PostgresStore
import Testing

@Suite("a critical section whose transaction fails leaves the tables as they were")
struct FailedTransactionTests {
    /// Every entry and its revision, which changes with every write.
    static let snapshot = """
        SELECT string_agg(entry || '@' || revision, ',' ORDER BY entry) FROM (
            SELECT 'session/' || did AS entry, revision FROM atoauth_sessions
            UNION ALL SELECT 'dpop-key/' || did, revision FROM atoauth_dpop_keys
            UNION ALL SELECT name, revision FROM atoauth_entries
        ) AS entries
        """

    /// Makes writing the entry `refused-now` fail at once, and writing `refused-at-commit` fail at the commit.
    static func refuse(_ fixture: StoreFixture) async throws {
        try await fixture.sql(
            """
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE 'refused'; END $$;
            CREATE TRIGGER refuse_now BEFORE INSERT OR UPDATE ON atoauth_entries
                FOR EACH ROW WHEN (NEW.name = 'refused-now') EXECUTE FUNCTION refuse();
            CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT OR UPDATE ON atoauth_entries
                DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW WHEN (NEW.name = 'refused-at-commit') EXECUTE FUNCTION refuse();
            """
        )
    }

    @Test("a refused commit: withLock throws, and no write of the section is kept")
    func commitRefused() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await Self.refuse(fixture)
                try await store.save(Data("old".utf8), as: "session/did:plc:aaa")
                let before = try await fixture.sql(Self.snapshot)
                await #expect(throws: PostgresStoreError.serverError) {
                    try await store.withLock("session/did:plc:aaa") {
                        try await store.save(Data("new".utf8), as: "session/did:plc:aaa")
                        try await store.save(Data("key".utf8), as: "dpop-key/did:plc:aaa")
                        try await store.save(Data("x".utf8), as: "refused-at-commit")
                    }
                }
                #expect(try await fixture.sql(Self.snapshot) == before)
                #expect(try await store.load("session/did:plc:aaa") == Data("old".utf8))
            }
        }
    }

    @Test("a failed statement whose error the body catches: withLock still throws, and nothing is kept")
    func statementFailedInside() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await Self.refuse(fixture)
                try await store.save(Data("old".utf8), as: "session/did:plc:aaa")
                let before = try await fixture.sql(Self.snapshot)
                await #expect(throws: PostgresStoreError.self) {
                    try await store.withLock("session/did:plc:aaa") {
                        try await store.save(Data("new".utf8), as: "session/did:plc:aaa")
                        await #expect(throws: PostgresStoreError.serverError) {
                            try await store.save(Data("x".utf8), as: "refused-now")
                        }
                    }
                }
                #expect(try await fixture.sql(Self.snapshot) == before)
                // The same at a checkpoint, which must not report a commit that did not happen.
                await #expect(throws: PostgresStoreError.self) {
                    try await store.withLock("session/did:plc:aaa") {
                        try await store.save(Data("new".utf8), as: "session/did:plc:aaa")
                        _ = try? await store.save(Data("x".utf8), as: "refused-now")
                        try await store.checkpoint()
                    }
                }
                #expect(try await fixture.sql(Self.snapshot) == before)
            }
        }
    }

    @Test("after a checkpoint that failed, nothing the section writes is kept and withLock throws")
    func checkpointFailed() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await Self.refuse(fixture)
                try await store.save(Data("old".utf8), as: "session/did:plc:aaa")
                let before = try await fixture.sql(Self.snapshot)
                await #expect(throws: PostgresStoreError.self) {
                    try await store.withLock("session/did:plc:aaa") {
                        try await store.save(Data("x".utf8), as: "refused-at-commit")
                        await #expect(throws: PostgresStoreError.serverError) { try await store.checkpoint() }
                        _ = try? await store.save(Data("new".utf8), as: "session/did:plc:aaa")
                    }
                }
                #expect(try await fixture.sql(Self.snapshot) == before)
                #expect(try await store.load("session/did:plc:aaa") == Data("old".utf8))
            }
        }
    }

    @Test("a section whose task was cancelled still commits what its body wrote, and returns its value")
    func cancelledCaller() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await store.save(Data("old".utf8), as: "session/did:plc:aaa")
                let section = Task {
                    try await store.withLock("session/did:plc:aaa") {
                        try await store.save(Data("new".utf8), as: "session/did:plc:aaa")
                        withUnsafeCurrentTask { $0?.cancel() }
                        return "done"
                    }
                }
                #expect(try await section.value == "done")
                #expect(try await store.load("session/did:plc:aaa") == Data("new".utf8))
            }
        }
    }
}
