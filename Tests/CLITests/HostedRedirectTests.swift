import Foundation
import Testing

/// `accounts add --client-id` with a native app's document whose loopback redirect URI is not where atoauth's
/// listener takes the redirect: the error lists the document's redirect URIs and says what to change.
@Suite("atoauth accounts add: a hosted document's redirect URIs")
struct HostedRedirectTests {
    /// Serves a native app's document registering `redirect`, and runs `body` with its URL.
    static func withNativeDocument<T>(redirect: String, _ body: (URL) async throws -> T) async throws -> T {
        try await withServedDocuments { origin, _ in
            [
                "client_id": origin + "/client-metadata.json", "application_type": "native",
                "redirect_uris": [redirect], "scope": "atproto transition:generic",
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "none", "dpop_bound_access_tokens": true,
            ]
        } _: { origin in
            try await body(try #require(URL(string: origin + "/client-metadata.json")))
        }
    }

    @Test(
        "a loopback redirect URI on another path or port is named, with the way to match it",
        arguments: ["http://127.0.0.1/other", "http://127.0.0.1:9999/callback"]
    )
    func unmatchedLoopbackRedirect(redirect: String) async throws {
        try await Self.withNativeDocument(redirect: redirect) { url in
            try await ScratchHome.with { scratch in
                let result = try await scratch.atoauth(
                    ["accounts", "add", "alice.test", "--client-id", url.absoluteString, "--allow-http-loopback"],
                    extraEnvironment: ["ATOAUTH_PASSPHRASE": "correct horse"]
                )
                #expect(result.status == 2, "\(result.stderr)")
                #expect(result.stderr.contains("redirect URIs (\(redirect))"), "\(result.stderr)")
                #expect(result.stderr.contains("http://127.0.0.1/callback (any port)"), "\(result.stderr)")
                #expect(result.stderr.contains("--callback-port"), "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: scratch.home.path), "nothing was stored")
            }
        }
    }
}
