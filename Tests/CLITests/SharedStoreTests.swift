import ATOAuthTesting
import Foundation
import Testing

@Suite("atoauth --store postgresql://: one store for several machines", .serialized)
struct SharedStoreTests {
    /// Signs `handles` in from machine 0 while access tokens live 2 seconds, then expires the tokens and makes new
    /// ones live an hour (``SandboxProcess/expireAccessTokens(issuedFor:then:)``), so exactly one refresh per account
    /// is due however many processes look.
    func signInAndExpire(_ shared: SharedStoreWorld, _ handles: [String], machines: Int) async throws {
        for handle in handles { try await shared.signIn(handle) }
        try shared.copyKey(to: machines)
        try await shared.world.sandbox.expireAccessTokens()
    }

    @Test("an account added on one machine is used from another; homes hold no session; a dump holds no secret")
    func sharedAccount() async throws {
        try await SharedStoreWorld.with { shared in
            try await shared.signIn("alice.test")
            try shared.copyKey(to: 2)
            let did = try #require(shared.world.did("alice.test"))
            let list = try await shared.atoauth(on: 1, "accounts", "list")
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout == "* alice.test \(did) \(shared.world.sandbox.pds.absoluteString) oauth\n")
            let whoami = try await shared.atoauth(on: 1, "whoami")
            #expect(whoami.status == 0, "\(whoami.stderr)")
            for index in 0..<2 {
                let home = shared.machineDirectory(index).appendingPathComponent("home")
                let files = try FileManager.default.contentsOfDirectory(atPath: home.path)
                #expect(files.allSatisfy { $0 == "dpop-nonces.json" }, "\(files)")
            }
            let session = try await shared.session(did)
            let secrets = [session["accessToken"], session["refreshToken"]].compactMap { $0 as? String }
            #expect(secrets.count == 2)
            let dump = try await shared.server.dump(shared.database.name)
            #expect(dump.contains(did))
            for secret in secrets { #expect(!dump.contains(secret)) }
        }
    }

    @Test("4 machines × 50 concurrent calls on an expired token: exactly one refresh, no replay")
    func refreshStorm() async throws {
        try await SharedStoreWorld.with(["--access-token-lifetime", "2"]) { shared in
            try await signInAndExpire(shared, ["alice.test"], machines: 4)
            let results = try await shared.concurrently(machines: 4, count: 50) { _, _ in ["whoami"] }
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            let counters = try await shared.world.sandbox.counters()
            #expect(counters.refreshGrantsSucceeded == 1)
            #expect(counters.refreshTokenReplays == 0)
        }
    }

    @Test("10 accounts refreshed at once from 4 machines: one refresh each, no replay")
    func tenAccounts() async throws {
        let handles = (0..<10).map { "user\($0).test" }
        try await SharedStoreWorld.with(["--access-token-lifetime", "2"] + handles.flatMap { ["--test-account", $0] }) {
            shared in
            try await signInAndExpire(shared, handles, machines: 4)
            let results = try await shared.concurrently(machines: 4, count: 20) { _, index in
                ["whoami", "--account", handles[index % handles.count]]
            }
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            let counters = try await shared.world.sandbox.counters()
            #expect(counters.refreshGrantsSucceeded == 10)
            #expect(counters.refreshTokenReplays == 0)
        }
    }

    @Test("an app-password account in the shared store: 2 machines × 20 calls → one refreshSession; no JWT in a dump")
    func appPasswordAccount() async throws {
        try await SharedStoreWorld.with(["--access-token-lifetime", "2"]) { shared in
            let password = try #require(shared.world.sandbox.appPasswords["alice.test"])
            let added = try await shared.atoauth(
                on: 0,
                "accounts",
                "add",
                "alice.test",
                "--app-password",
                extra: ["ATOAUTH_APP_PASSWORD": password]
            )
            #expect(added.status == 0, "\(added.stderr)")
            try shared.copyKey(to: 2)
            try await shared.world.sandbox.expireAccessTokens()
            let results = try await shared.concurrently(machines: 2, count: 20) { _, _ in ["whoami"] }
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            let counters = try await shared.world.sandbox.counters()
            #expect(counters.legacyRefreshesSucceeded == 1)
            #expect(counters.refreshTokenReplays == 0)
            let did = try #require(shared.world.did("alice.test"))
            let list = try await shared.atoauth(on: 1, "accounts", "list")
            #expect(list.stdout == "* alice.test \(did) \(shared.world.sandbox.pds.absoluteString) app-password\n")
            let session = try await shared.session(did)
            let secrets = [session["accessToken"], session["refreshToken"]].compactMap { $0 as? String } + [password]
            #expect(secrets.count == 3)
            let dump = try await shared.server.dump(shared.database.name)
            for secret in secrets { #expect(!dump.contains(secret)) }
            for result in results + [added, list] {
                for secret in secrets { #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret)) }
            }
        }
    }

    @Test("a process killed during its refresh: the lock is freed, others carry on, nothing is corrupt or replayed")
    func killedDuringRefresh() async throws {
        try await SharedStoreWorld.with(["--access-token-lifetime", "2"]) { shared in
            try await signInAndExpire(shared, ["alice.test", "bob.test"], machines: 3)
            try await shared.world.sandbox.configure(#"{"slowResponses": 3}"#)
            let victim = try CLIProcess.start(["whoami", "--account", "alice.test"], environment: shared.machine(1))
            try await Waiting.until("the refresh note was written") {
                try await shared.sql("SELECT count(*) FROM atoauth_refresh_notes") == "1"
            }
            victim.signal(SIGKILL)
            let killed = try await victim.finish()
            #expect(killed.status == SIGKILL || !victim.isRunning)
            try await shared.world.sandbox.configure(#"{"slowResponses": 0}"#)
            try await Waiting.until("the killed process's lock was released") {
                try await shared.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == "0"
            }
            let bob = try await shared.concurrently(machines: 3, count: 4) { _, _ in
                ["whoami", "--account", "bob.test"]
            }
            for result in bob { #expect(result.status == 0, "\(result.stderr)") }
            let alice = try await shared.atoauth(on: 2, "whoami", "--account", "alice.test")
            #expect(alice.status == 3, "\(alice.stderr)")
            #expect(alice.stderr.contains("cut off"), "\(alice.stderr)")
            #expect(alice.stderr.contains("atoauth accounts add"), "\(alice.stderr)")
            let counters = try await shared.world.sandbox.counters()
            #expect(counters.refreshTokenReplays == 0)
            let entries = try await shared.entries()
            let bobDID = try #require(shared.world.did("bob.test"))
            #expect(entries.keys.contains("session/\(bobDID)"))
            #expect(!entries.keys.contains { $0.hasPrefix("refreshing/") })
            let list = try await shared.atoauth(on: 0, "accounts", "list")
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("bob.test") && !list.stdout.contains("alice.test"))
        }
    }

    @Test("--store wins over ATOAUTH_STORE; a URL of another scheme is a usage error; a server that is down, exit 1")
    func options() async throws {
        try await SharedStoreWorld.with { shared in
            try await shared.signIn("alice.test")
            let flagWins = try await shared.atoauth(
                on: 0,
                "--store",
                shared.database.url,
                "accounts",
                "list",
                extra: ["ATOAUTH_STORE": "postgresql://nobody@/nowhere?host=/nonexistent"]
            )
            #expect(flagWins.status == 0, "\(flagWins.stderr)")
            #expect(flagWins.stdout.contains("alice.test"))
            let wrongScheme = try await shared.atoauth(on: 0, "accounts", "list", extra: ["ATOAUTH_STORE": "https://x"])
            #expect(wrongScheme.status == 2)
            #expect(wrongScheme.stderr.contains("postgresql://"))
            let closed = try ClosedPort()
            let down = try await shared.atoauth(
                on: 0,
                "whoami",
                extra: ["ATOAUTH_STORE": "postgresql://u:hunter2@127.0.0.1:\(closed.port)/db?sslmode=disable"]
            )
            #expect(down.status == 1)
            #expect(down.stderr.contains("connection refused"), "\(down.stderr)")
            #expect(!down.stderr.contains("hunter2"))
            #expect(down.stderr.split(separator: "\n").count <= 2)
            let files = try await shared.atoauth(on: 0, "accounts", "list", extra: ["ATOAUTH_STORE": ""])
            #expect(files.status == 0)
            #expect(!files.stdout.contains("alice.test"))
        }
    }
}
