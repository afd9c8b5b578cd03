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

            let json = try await world.atoauth("accounts", "status", "alice.test", "--json")
            #expect(json.status == 0, "\(json.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["kind"] as? String == "oauth")
            #expect(object["did"] as? String == did)
            #expect(object["permissions"] as? [String] == ["atproto", "transition:generic"])
            #expect(object["notGranted"] as? [String] == [])
            #expect(object["accessTokenExpiresAt"] is String)
            let stored = try world.storedSession(did)
            for secret in ["accessToken", "refreshToken"] {
                let value = try #require(stored[secret] as? String)
                #expect(!json.stdout.contains(value) && !text.stdout.contains(value))
            }
            #expect(try await world.atoauth("accounts", "status", "nobody.test").status == 3)
        }
    }
}
