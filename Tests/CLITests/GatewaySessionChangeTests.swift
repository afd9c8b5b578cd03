import Foundation
import Testing

/// A running gateway follows the sessions other processes store: every permission check, the early one made before an
/// upload's body is read included, looks at the account's current session.
@Suite("atoauth gateway and a session changed by another process")
struct GatewaySessionChangeTests {
    @Test("signed in again with a broader scope by another process: the same gateway's next upload goes through")
    func broaderScopeElsewhere() async throws {
        try await CLIWorld.with { world in
            let narrow = "atproto repo:app.bsky.feed.like?action=create"
            let add = try await world.atoauth("accounts", "add", "alice.test", "--scope", narrow)
            #expect(add.status == 0, "\(add.stderr)")
            let gateway = try await GatewayProcess(in: world)
            let token = try gateway.token()
            let upload = [
                "-H", "Content-Type: image/png", "--data-binary", String(repeating: "x", count: 4096),
            ]
            let refused = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.repo.uploadBlob", upload, token: token))
            #expect(refused.status == 403 && refused.error == "ScopeMissingError", "\(refused.body)")

            // Another process signs alice in again, with the default scope, which covers uploads.
            try await world.signIn("alice.test")
            let allowed = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.repo.uploadBlob", upload, token: token))
            #expect(allowed.status == 200, "\(allowed.body)")
            #expect(allowed.body.contains(#""size":4096"#))
        }
    }
}
