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

    /// The entry every section here writes, which holds "old" before it.
    static let session = "session/did:plc:aaa"

    /// Runs `section` under the lock of ``session``, which holds "old", and returns what `withLock` threw, having
    /// checked that it threw and that the tables are as they were.
    static func failedSection(
        _ fixture: StoreFixture,
        _ store: PostgresStore,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ section: @escaping () async throws -> Void
    ) async throws -> PostgresStoreError? {
        try await store.save(Data("old".utf8), as: session)
        let before = try await fixture.sql(snapshot)
        let error = await #expect(throws: PostgresStoreError.self, sourceLocation: sourceLocation) {
            try await store.withLock(session) { try await section() }
        }
        #expect(try await fixture.sql(snapshot) == before, sourceLocation: sourceLocation)
        #expect(try await store.load(session) == Data("old".utf8), sourceLocation: sourceLocation)
        return error
    }

    @Test("a refused commit: withLock throws, and no write of the section is kept")
    func commitRefused() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await Self.refuse(fixture)
                let error = try await Self.failedSection(fixture, store) {
                    try await store.save(Data("new".utf8), as: Self.session)
                    try await store.save(Data("key".utf8), as: "dpop-key/did:plc:aaa")
                    try await store.save(Data("x".utf8), as: "refused-at-commit")
                }
                #expect(error == .serverError)
            }
        }
    }

    @Test("a failed statement whose error the body catches: withLock still throws, and nothing is kept")
    func statementFailedInside() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await Self.refuse(fixture)
                _ = try await Self.failedSection(fixture, store) {
                    try await store.save(Data("new".utf8), as: Self.session)
                    await #expect(throws: PostgresStoreError.serverError) {
                        try await store.save(Data("x".utf8), as: "refused-now")
                    }
                }
                // The same at a checkpoint, which must not report a commit that did not happen.
                _ = try await Self.failedSection(fixture, store) {
                    try await store.save(Data("new".utf8), as: Self.session)
                    _ = try? await store.save(Data("x".utf8), as: "refused-now")
                    try await store.checkpoint()
                }
            }
        }
    }

    @Test("after a checkpoint that failed, nothing the section writes is kept and withLock throws")
    func checkpointFailed() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await Self.refuse(fixture)
                _ = try await Self.failedSection(fixture, store) {
                    try await store.save(Data("x".utf8), as: "refused-at-commit")
                    await #expect(throws: PostgresStoreError.serverError) { try await store.checkpoint() }
                    _ = try? await store.save(Data("new".utf8), as: Self.session)
                }
            }
        }
    }

    @Test("a section whose task was cancelled still commits what its body wrote, and returns its value")
    func cancelledCaller() async throws {
        try await StoreFixture.with { fixture in
            try await fixture.withStore { store in
                try await store.save(Data("old".utf8), as: Self.session)
                let section = Task {
                    try await store.withLock(Self.session) {
                        try await store.save(Data("new".utf8), as: Self.session)
                        withUnsafeCurrentTask { $0?.cancel() }
                        return "done"
                    }
                }
                #expect(try await section.value == "done")
                #expect(try await store.load(Self.session) == Data("new".utf8))
            }
        }
    }
}
