import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import OAuthMetadata
import OAuthSessionManager
import PostgresStore
import Sandbox
import Synchronization
import Testing

@Suite("The confidential client's keys reach the database sealed")
struct ClientKeySealingTests {
    @Test("after two client keys are added and a session bound to one is refreshed, no row holds either key's d")
    func noPrivateScalarInAnyRow() async throws {
        try await StoreFixture.with { fixture in
            let current = ClientKey()
            let next = ClientKey()
            try await Self.withService(publishing: [current, next]) { world, clientID in
                try await fixture.withStore { store in
                    let accounts = world.accounts(keystore: store)
                    _ = try await accounts.addClientKey(current)
                    // Published at once, signing nothing for ten minutes: a key at rest that no session uses yet.
                    #expect(try await accounts.addClientKey(next).state == .next)
                    let client = try await accounts.hostedClient(clientID: clientID, redirectURI: nil)
                    let request = try await accounts.authorize("alice.test", client: client)
                    let alice = try await accounts.callback(try await world.approve(request)).account
                    world.clock.advance(by: 3_600)
                    _ = try await accounts.client(for: .did(alice.did)).getSession()
                    #expect(world.server.counters.refreshGrantsSucceeded == 1)
                    #expect(world.server.counters.clientAssertionsRefused == 0)
                    let statuses = try await accounts.clientKeys()
                    #expect(statuses.map(\.record.keyID) == [current.keyID, next.keyID])
                    #expect(statuses.map(\.sessions) == [1, 0])
                }
            }

            let dump = try await fixture.server.dump(fixture.database.name)
            let rows = try await Self.everyRow(fixture)
            for key in [current, next] {
                #expect(dump.contains("client-key/\(key.keyID)"), "the key's entry is in the database")
                #expect(rows.contains("client-key/\(key.keyID)"), "the key's entry is in the database")
            }
            let (dumped, selected) = (dump.lowercased(), rows.lowercased())
            for key in [current, next] {
                for form in try key.printedFormsOfPrivateScalar().map({ $0.lowercased() }) {
                    #expect(!dumped.contains(form), "pg_dump shows the d of \(key.keyID)")
                    #expect(!selected.contains(form), "a row shows the d of \(key.keyID)")
                }
            }
        }
    }

    /// Every row of every table of the database as text (`bytea` in hex, as PostgreSQL prints it), then every `bytea`
    /// value with its printable bytes as they are (`encode(…, 'escape')`), one per line.
    static func everyRow(_ fixture: StoreFixture) async throws -> String {
        let tables = try await fixture.sql(
            "SELECT string_agg(quote_ident(tablename), ',' ORDER BY tablename) FROM pg_tables "
                + "WHERE schemaname = 'public'"
        )
        #expect(tables.contains("atoauth_entries") && tables.contains("atoauth_sessions"), "\(tables)")
        var rows: [String] = []
        for table in tables.split(separator: ",") {
            rows.append(try await fixture.sql("SELECT row_to_json(t)::text FROM \(table) t"))
        }
        let columns = try await fixture.sql(
            "SELECT quote_ident(table_name) || ' ' || quote_ident(column_name) FROM information_schema.columns "
                + "WHERE table_schema = 'public' AND data_type = 'bytea'"
        )
        #expect(!columns.isEmpty, "the sealed values are bytea")
        for column in columns.split(separator: "\n") {
            let parts = column.split(separator: " ")
            guard parts.count == 2 else { continue }
            rows.append(try await fixture.sql("SELECT encode(\(parts[1]), 'escape') FROM \(parts[0])"))
        }
        return rows.joined(separator: "\n")
    }

    /// Serves a confidential web client's metadata document publishing `keys` from a loopback server (the sandbox
    /// fetches it, as it does a development client's), starts the sandbox, and runs `body`.
    static func withService<T>(
        publishing keys: [ClientKey],
        _ body: (SandboxWorld, URL) async throws -> T
    ) async throws -> T {
        let clientID = Mutex<String>("")
        let handler: LoopbackHTTPServer.Handler = { _ in
            let document: [String: Any] = [
                "client_id": clientID.withLock { $0 }, "application_type": "web",
                "redirect_uris": ["http://127.0.0.1:9/callback"], "scope": "atproto transition:generic",
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "private_key_jwt", "token_endpoint_auth_signing_alg": "ES256",
                "dpop_bound_access_tokens": true, "jwks": ["keys": keys.map(\.publicJWK)],
            ]
            let body = (try? JSONSerialization.data(withJSONObject: document)) ?? Data()
            return ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
        }
        return try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let url = server.url("/client-metadata.json")
            clientID.withLock { $0 = url.absoluteString }
            return try await SandboxWorld.with(SandboxConfiguration(autoApprove: true)) { world in
                try await body(world, url)
            }
        }
    }
}
