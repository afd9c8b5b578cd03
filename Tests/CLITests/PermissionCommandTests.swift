import Foundation
import Testing

@Suite("The CLI and permission scopes, as real processes against the sandbox")
struct PermissionCommandTests {
    @Test("a malformed --scope is a usage error naming the token; nothing is started or stored")
    func malformedScope() async throws {
        try await CLIWorld.with { world in
            let result = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--scope",
                "atproto repo:app.bsky.feed.post?action=publish"
            )
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("repo:app.bsky.feed.post?action=publish"))
            #expect(result.stderr.contains("atproto.com/specs/permission"))
            #expect(try world.storedNames().isEmpty)
        }
    }

    @Test("accounts status shows the session and its permissions in words, and never a secret")
    func status() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            let text = try await world.atoauth("accounts", "status")
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("alice.test \(did) (active)"))
            #expect(text.stdout.contains("atproto  — use AT Protocol OAuth (required)"))
            #expect(text.stdout.contains("transition:generic  — broad access"))
            #expect(text.stdout.contains("access token"))
            #expect(text.stdout.contains("signed in"))
            // A sign-in a moment ago is in the past, never "in 0 s".
            for line in text.stdout.split(separator: "\n")
            where line.contains("signed in") || line.contains("refreshed  ") {
                #expect(line.contains("just now)") || line.contains(" s ago)"), "\(line)")
            }
            #expect(text.stdout.contains("(in 13 d) at the latest") || text.stdout.contains("(in 14 d) at the latest"))

            let json = try await world.atoauth("accounts", "status", "alice.test", "--json")
            #expect(json.status == 0, "\(json.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["kind"] as? String == "oauth")
            #expect(object["did"] as? String == did)
            #expect(object["permissions"] as? [String] == ["atproto", "transition:generic"])
            #expect(object["notGranted"] as? [String] == [])
            #expect(object["accessTokenExpiresAt"] is String)
            let formatter = ISO8601DateFormatter()
            let signedIn = try #require((object["signedInAt"] as? String).flatMap(formatter.date(from:)))
            let end = try #require((object["sessionEndsAtLatest"] as? String).flatMap(formatter.date(from:)))
            #expect(end.timeIntervalSince(signedIn) == 14 * 86_400)
            let stored = try world.storedSession(did)
            for secret in ["accessToken", "refreshToken"] {
                let value = try #require(stored[secret] as? String)
                #expect(!json.stdout.contains(value) && !text.stdout.contains(value))
            }
            #expect(try await world.atoauth("accounts", "status", "nobody.test").status == 3)
        }
    }

    private func post(_ did: String) -> String {
        #"{"repo":"\#(did)","collection":"app.bsky.feed.post","record":{"text":"hi"}}"#
    }

    @Test("a write the granted permissions clearly lack exits 3 before sending, with the command to ask again")
    func refusedLocally() async throws {
        try await CLIWorld.with { world in
            let add = try await world.atoauth(
                "accounts",
                "add",
                "alice.test",
                "--scope",
                "atproto repo:app.bsky.feed.like?action=create"
            )
            #expect(add.status == 0, "\(add.stderr)")
            #expect(!add.stderr.contains("Warning"))
            let did = try #require(world.did("alice.test"))
            let before = try await world.sandbox.counters()
            let result = try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", post(did))
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("needs the permission repo:app.bsky.feed.post?action=create"))
            #expect(result.stderr.contains("nothing was sent"))
            #expect(
                result.stderr.contains(
                    "atoauth accounts add alice.test --scope 'atproto repo:app.bsky.feed.like?action=create "
                        + "repo:app.bsky.feed.post?action=create'"
                )
            )
            #expect(try await world.sandbox.counters().xrpcRequestsReceived == before.xrpcRequestsReceived)
        }
    }

    @Test("when the grant is not fully understood the call is sent, and the PDS's ScopeMissingError exits 3")
    func refusedByThePDS() async throws {
        try await CLIWorld.with { world in
            // A space: permission means nothing to the client, so it cannot tell what the grant allows.
            let scope = "atproto space:com.example.forum repo:app.bsky.feed.like?action=create"
            #expect(try await world.atoauth("accounts", "add", "alice.test", "--scope", scope).status == 0)
            let did = try #require(world.did("alice.test"))
            let before = try await world.sandbox.counters()
            let result = try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", post(did))
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("the PDS refused it with ScopeMissingError"))
            #expect(result.stderr.contains("repo:app.bsky.feed.post?action=create"))
            // Sent: once, or twice when the PDS first asks for a DPoP nonce (this process never talked to it).
            #expect(try await world.sandbox.counters().xrpcRequestsReceived > before.xrpcRequestsReceived)
        }
    }

    @Test("a server that grants less than asked: sign-in succeeds, a warning names what is missing, status lists it")
    func grantedLess() async throws {
        try await CLIWorld.with(["--withhold-permission", "blob:image/*"]) { world in
            let scope = "atproto repo:app.bsky.feed.post?action=create blob:image/*"
            let add = try await world.atoauth("accounts", "add", "alice.test", "--scope", scope)
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stderr.contains("Warning: the server did not grant blob:image/*"))
            let status = try await world.atoauth("accounts", "status", "--json")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            )
            #expect(object["notGranted"] as? [String] == ["blob:image/*"])
            #expect(object["permissions"] as? [String] == ["atproto", "repo:app.bsky.feed.post?action=create"])
            let did = try #require(world.did("alice.test"))
            #expect(try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", post(did)).status == 0)
        }
    }

    @Test("an include: set is expanded by the server and its permissions are used")
    func includeSet() async throws {
        try await CLIWorld.with { world in
            let scope = "atproto include:app.bsky.authCreatePosts?aud=did:web:api.bsky.app%23bsky_appview"
            let add = try await world.atoauth("accounts", "add", "alice.test", "--scope", scope)
            #expect(add.status == 0, "\(add.stderr)")
            #expect(!add.stderr.contains("Warning"))
            let did = try #require(world.did("alice.test"))
            #expect(try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", post(did)).status == 0)
            let profile = try await world.atoauth("xrpc", "app.bsky.actor.getProfile", "actor=alice.test")
            #expect(profile.status == 0, "\(profile.stderr)")
        }
    }

    @Test("a grant without atproto is a failed security check: exit 4, nothing stored")
    func atprotoWithheld() async throws {
        try await CLIWorld.with(["--withhold-permission", "atproto"]) { world in
            let add = try await world.atoauth("accounts", "add", "alice.test")
            #expect(add.status == 4, "\(add.stderr)")
            #expect(add.stderr.contains("atproto"))
            #expect(try world.storedNames().allSatisfy { !$0.hasPrefix("session/") && !$0.hasPrefix("pending/") })
        }
    }
}
