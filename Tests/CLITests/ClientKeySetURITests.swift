import ATOAuthTesting
import Foundation
import OAuthMetadata
import Testing

/// `client check` of a confidential client's document at a URL fetches the key set at its `jwks_uri` and checks it as
/// an inline `jwks`, as an authorization server does at the client's first request.
@Suite("atoauth client check: the key set at jwks_uri")
struct ClientKeySetURITests {
    /// Serves a confidential client's document naming `/jwks.json` as its `jwks_uri`, and `keySet` there (a 404 for
    /// `nil`), and runs `body` with the document's URL.
    static func withDocument<T>(keySet: Data?, _ body: (URL) async throws -> T) async throws -> T {
        try await withServedDocuments { origin, path in
            guard path == "/client-metadata.json" else { return path == "/jwks.json" ? keySet : nil }
            return [
                "client_id": origin + "/client-metadata.json", "application_type": "web",
                "redirect_uris": [origin + "/signed-in"], "scope": "atproto transition:generic",
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "private_key_jwt", "token_endpoint_auth_signing_alg": "ES256",
                "dpop_bound_access_tokens": true, "jwks_uri": origin + "/jwks.json",
            ]
        } _: { origin in
            try await body(try #require(URL(string: origin + "/client-metadata.json")))
        }
    }

    /// `atoauth client check URL` in development mode, with `--json` when asked.
    static func check(_ url: URL, _ scratch: ScratchHome, json: Bool = false) async throws -> CLIProcess.Result {
        try await scratch.atoauth(
            ["client", "check", "--allow-http-loopback", url.absoluteString] + (json ? ["--json"] : [])
        )
    }

    @Test("a key set of public keys passes")
    func publicKeys() async throws {
        let keySet = ClientKey().publicJWKS
        try await Self.withDocument(keySet: keySet) { url in
            try await ScratchHome.with { scratch in
                let result = try await Self.check(url, scratch)
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                #expect(result.stdout.contains("is a valid confidential client document"))
            }
        }
    }

    @Test("a key set that publishes a private key is a problem named by member, never by value")
    func privateKey() async throws {
        let key = ClientKey()
        var jwk = key.publicJWK
        let secret = "c2VjcmV0LXNjYWxhci1ub3QtcmVhbGx5LWEta2V5LWF0LWFsbA"
        jwk["d"] = secret
        let keySet = try JSONSerialization.data(withJSONObject: ["keys": [jwk]])
        try await Self.withDocument(keySet: keySet) { url in
            try await ScratchHome.with { scratch in
                let result = try await Self.check(url, scratch)
                #expect(result.status == 1)
                #expect(result.stdout.contains("jwks_uri: key 1"), "\(result.stdout)")
                #expect(result.stdout.contains("private key material (d)"), "\(result.stdout)")
                let json = try await Self.check(url, scratch, json: true)
                #expect(json.status == 1)
                for output in [result.stdout, result.stderr, json.stdout, json.stderr] {
                    #expect(!output.contains(secret))
                }
            }
        }
    }

    @Test("a jwks_uri that cannot be fetched, or serves no key set, is a problem")
    func unusableKeySet() async throws {
        for (keySet, expected) in [(nil, "jwks_uri: it cannot be fetched"), (Data("[1,2,3]".utf8), "JWK Set")] {
            try await Self.withDocument(keySet: keySet) { url in
                try await ScratchHome.with { scratch in
                    let result = try await Self.check(url, scratch)
                    #expect(result.status == 1)
                    #expect(result.stdout.contains(expected), "\(result.stdout)")
                }
            }
        }
    }
}
