import ATOAuthTesting
import Foundation
import OAuthMetadata
import Testing
import WireFormat

/// Client assertions made here, verified by joserfc (Tests/Interop/client_assertion_interop.py), an independent JOSE
/// implementation.
@Suite("Client assertions (RFC 7523) against an independent JWT implementation")
struct ClientAssertionTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/client_assertion_interop.py")

    struct Verdict: Decodable, Sendable {
        var valid: Bool
        var error: String?
    }

    static func verify(_ assertion: String, key: ClientKey, clientID: String, audience: String) async throws -> Verdict
    {
        let request: [String: Any] = [
            "assertion": assertion, "jwk": key.publicJWK, "client_id": clientID, "audience": audience,
        ]
        let finished = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path],
            input: try JSONSerialization.data(withJSONObject: request)
        )
        try #require(finished.status == 0, "python3 \(script.lastPathComponent) failed: \(finished.standardError)")
        return try JSONDecoder().decode(Verdict.self, from: finished.outputData)
    }

    @Test("joserfc verifies the signature and finds iss = sub = client_id, aud, jti, iat and exp 60 s later")
    func verifiedIndependently() async throws {
        let key = ClientKey()
        let clientID = "https://app.example.com/client-metadata.json"
        let assertion = try ClientAssertion.make(
            key: key,
            clientID: clientID,
            audience: "https://auth.example.com",
            issuedAt: Date()
        )
        let verdict = try await Self.verify(
            assertion,
            key: key,
            clientID: clientID,
            audience: "https://auth.example.com"
        )
        #expect(verdict.valid, "\(verdict.error ?? "")")
    }

    @Test("Another key's signature, or another audience, does not verify")
    func refusedIndependently() async throws {
        let key = ClientKey()
        let clientID = "https://app.example.com/client-metadata.json"
        let assertion = try ClientAssertion.make(
            key: key,
            clientID: clientID,
            audience: "https://a.example",
            issuedAt: Date()
        )
        let otherKey = try await Self.verify(
            assertion,
            key: ClientKey(),
            clientID: clientID,
            audience: "https://a.example"
        )
        #expect(!otherKey.valid)
        let otherAudience = try await Self.verify(
            assertion,
            key: key,
            clientID: clientID,
            audience: "https://b.example"
        )
        #expect(!otherAudience.valid)
    }

    @Test("Every assertion has a new jti; header and claims are as RFC 7523 §3 asks")
    func shape() throws {
        let key = ClientKey()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try ClientAssertion.make(key: key, clientID: "c", audience: "a", issuedAt: now)
        let second = try ClientAssertion.make(key: key, clientID: "c", audience: "a", issuedAt: now)
        func part(_ token: String, _ index: Int) throws -> [String: Any] {
            let segment = try #require(Base64URL.decode(token.split(separator: ".")[index]))
            return try #require(try JSONSerialization.jsonObject(with: segment) as? [String: Any])
        }
        let header = try part(first, 0)
        #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == key.keyID)
        let claims = try part(first, 1)
        #expect(claims["iat"] as? Int == 1_800_000_000 && claims["exp"] as? Int == 1_800_000_060)
        #expect(claims["jti"] as? String != (try part(second, 1))["jti"] as? String)
    }

    @Test("Names with quotes, backslashes or control characters stay valid JSON")
    func escaping() throws {
        let odd = "https://x.example/\"a\\b\u{01}é"
        let assertion = try ClientAssertion.make(key: ClientKey(), clientID: odd, audience: odd, issuedAt: Date())
        let segment = try #require(Base64URL.decode(assertion.split(separator: ".")[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: segment) as? [String: Any])
        #expect(claims["iss"] as? String == odd && claims["aud"] as? String == odd)
    }
}
