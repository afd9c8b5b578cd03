import Foundation
import Testing

@Suite("Sessions across processes: refresh, nonces, revocation", .serialized)
struct SessionLifecycleTests {
    /// Signs in while access tokens live 2 seconds, expires the token (``SandboxProcess/expireAccessTokens(issuedFor:then:)``)
    /// and applies `settings`, so exactly one refresh is due however many processes look at the expired token.
    func signInAndExpire(_ world: CLIWorld, settings: String = #"{"accessTokenLifetime": 3600}"#) async throws {
        try await world.signIn("alice.test")
        try await world.sandbox.expireAccessTokens(then: settings)
    }

    @Test("after the access token expires, whoami refreshes once and succeeds")
    func refreshAfterExpiry() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await signInAndExpire(world)
            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 0, "\(whoami.stderr)")
            #expect(try await world.sandbox.counters().refreshGrantsSucceeded == 1)
            #expect(try await world.atoauth("whoami").status == 0)
            #expect(try await world.sandbox.counters().refreshGrantsSucceeded == 1)
        }
    }

    @Test("a fresh whoami process reuses the kept DPoP nonce: one request to the PDS, and -v names the account")
    func noncesSurviveTheProcess() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            #expect(try await world.atoauth("whoami").status == 0)
            let before = try await world.sandbox.counters()
            let whoami = try await world.atoauth("-v", "whoami")
            #expect(whoami.status == 0, "\(whoami.stderr)")
            let after = try await world.sandbox.counters()
            #expect(after.xrpcRequestsReceived - before.xrpcRequestsReceived == 1)
            #expect(after.nonceChallengesSent == before.nonceChallengesSent)
            // The transport logs each request it sends as "→ <target> …": the same single request, seen by the client.
            let sent = whoami.stderr.split(separator: "\n").filter { $0.contains("→ ") && $0.contains("/xrpc/") }
            #expect(sent.count == 1, "\(sent)")
            #expect(whoami.stderr.contains("as alice.test (did:"))
        }
    }

    @Test("20 concurrent whoami processes on an expired token all succeed with exactly one refresh and no replay")
    func concurrentProcesses() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await signInAndExpire(world)
            let running = try (0..<20).map { _ in try CLIProcess.start(["whoami"], environment: world.environment) }
            var results: [CLIProcess.Result] = []
            for process in running { results.append(try await process.finish(timeout: .seconds(120))) }
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            let counters = try await world.sandbox.counters()
            #expect(counters.refreshGrantsSucceeded == 1)
            #expect(counters.refreshTokenReplays == 0)
        }
    }

    @Test("a new nonce on every response: 30 calls succeed with at most one retry each")
    func nonceOnEveryResponse() async throws {
        try await CLIWorld.with(["--new-nonce-every-response"]) { world in
            try await world.signIn("alice.test")
            let before = try await world.sandbox.counters()
            for _ in 0..<30 {
                let result = try await world.atoauth("xrpc", "com.atproto.server.getSession")
                #expect(result.status == 0, "\(result.stderr)")
            }
            let after = try await world.sandbox.counters()
            #expect(after.nonceChallengesSent - before.nonceChallengesSent <= 30)
            #expect(
                after.totalRejections - before.totalRejections == after.nonceChallengesSent - before.nonceChallengesSent
            )
        }
    }

    @Test("transient refresh failures keep the session; it refreshes once the server is back")
    func transientRefreshFailure() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await signInAndExpire(world, settings: #"{"accessTokenLifetime": 3600, "refreshServerErrors": 1}"#)
            let failed = try await world.atoauth("whoami")
            #expect(failed.status == 1, "\(failed.stderr)")
            #expect(try world.storedNames().contains { $0.hasPrefix("session/") })
            let recovered = try await world.atoauth("whoami")
            #expect(recovered.status == 0, "\(recovered.stderr)")
        }
    }

    @Test("after the server revokes the session, whoami exits 3 and the session is deleted")
    func revocation() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            try await world.revokeAtServer(sessionOf: did)
            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 3, "\(whoami.stderr)")
            #expect(whoami.stderr.contains("alice.test was signed out by the server"), "\(whoami.stderr)")
            #expect(whoami.stderr.contains("Sign in again with `atoauth accounts add alice.test`."), "\(whoami.stderr)")
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") })
        }
    }

    @Test("when the server ends the active account, the other account becomes active, and every message names handles")
    func revokedActiveAccountHandsOver() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("bob.test")
            try await world.signIn("alice.test")
            let alice = try #require(world.did("alice.test"))
            try await world.revokeAtServer(sessionOf: alice)

            let whoami = try await world.atoauth("whoami")
            #expect(whoami.status == 3, "\(whoami.stderr)")
            #expect(whoami.stderr.contains("alice.test was signed out by the server"), "\(whoami.stderr)")
            #expect(whoami.stderr.contains("bob.test is the active account now."), "\(whoami.stderr)")
            #expect(whoami.stderr.contains("Sign in again with `atoauth accounts add alice.test`."))
            #expect(!whoami.stderr.contains("did:"), "handles, not DIDs: \(whoami.stderr)")
            #expect(!whoami.stderr.contains("<handle>"), "\(whoami.stderr)")

            let next = try await world.atoauth("whoami")
            #expect(next.status == 0, "\(next.stderr)")
            #expect(next.stdout.hasPrefix("bob.test "), "\(next.stdout)")
        }
    }

    @Test("accounts status --check that refreshed the session shows it as it is after the refresh")
    func statusCheckAfterRefresh() async throws {
        try await CLIWorld.with(["--access-token-lifetime", "2"]) { world in
            try await world.signIn("alice.test")
            let before = try Self.status(try await world.atoauth("accounts", "status", "--json"))
            try await world.sandbox.expireAccessTokens()
            let checked = try Self.status(try await world.atoauth("accounts", "status", "--check", "--json"))
            #expect((checked["check"] as? [String: Any])?["result"] as? String == "valid")
            let after = try Self.status(try await world.atoauth("accounts", "status", "--json"))
            // Issued for 2 s before, for an hour by the refresh: not the same second however fast the machine.
            let expiry = "accessTokenExpiresAt"
            #expect(after[expiry] as? String != before[expiry] as? String, "the check refreshed")
            for field in ["accessTokenExpiresAt", "refreshedAt", "sessionEndsAtLatest"] {
                #expect(checked[field] as? String == after[field] as? String, "\(field): \(checked) vs \(after)")
            }
        }
    }

    /// The object `accounts status --json` printed.
    static func status(_ result: CLIProcess.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("accounts status --all --check: every account, each session asked live; a revoked one shows as ended, exit 3")
    func statusCheck() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let valid = try await world.atoauth("accounts", "status", "--all", "--check")
            #expect(valid.status == 0, "\(valid.stderr)")
            #expect(valid.stdout.contains("alice.test ") && valid.stdout.contains("bob.test "), "\(valid.stdout)")
            #expect(valid.stdout.components(separatedBy: "checked      valid: the PDS accepts").count == 3)

            let bob = try #require(world.did("bob.test"))
            try await world.revokeAtServer(sessionOf: bob)
            let checked = try await world.atoauth("accounts", "status", "--all", "--check", "--json")
            #expect(checked.status == 3, "\(checked.stderr)")
            let objects = try #require(
                try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [[String: Any]]
            )
            let results = Dictionary(
                uniqueKeysWithValues: objects.map {
                    ($0["handle"] as? String ?? "", ($0["check"] as? [String: Any])?["result"] as? String)
                }
            )
            #expect(results == ["alice.test": "valid", "bob.test": "ended"], "\(checked.stdout)")
            // An ended session's check says how to sign it in again, as every command that meets one does.
            let ended = objects.first { $0["handle"] as? String == "bob.test" }?["check"] as? [String: Any]
            let message = try #require(ended?["message"] as? String)
            #expect(message.contains("atoauth accounts add bob.test"), "\(message)")
            #expect(try world.storedNames().allSatisfy { $0 != "session/\(bob)" }, "the ended session is gone")

            let unchecked = try await world.atoauth("accounts", "status", "--all")
            #expect(unchecked.status == 0 && !unchecked.stdout.contains("checked"), "nothing is sent without --check")
            let both = try await world.atoauth("accounts", "status", "alice.test", "--all")
            #expect(both.status == 2 && both.stderr.contains("--all shows every account"), "\(both.stderr)")
        }
    }
}
