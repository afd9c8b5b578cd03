import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import OAuthSessionManager
import Sandbox
import Testing
import WireFormat

@Suite("Known answers from the RFCs")
struct KnownAnswerTests {
    @Test("PKCE S256 challenge matches RFC 7636 Appendix B")
    func pkceAppendixB() throws {
        let vector = try Vectors.section("rfc7636_appendix_b")
        let octets = try #require(vector["verifier_octets"] as? [Int]).map(UInt8.init)
        let verifier = Base64URL.encode(octets)
        #expect(verifier == vector["code_verifier"] as? String)
        let pkce = try PKCE(verifier: verifier)
        #expect(pkce.challenge == vector["code_challenge_S256"] as? String)
    }

    @Test("PKCE generated from injected bytes matches RFC 7636 Appendix B")
    func pkceFromRandomSource() throws {
        let vector = try Vectors.section("rfc7636_appendix_b")
        let octets = try #require(vector["verifier_octets"] as? [Int]).map(UInt8.init)
        let pkce = PKCE.generate(using: FixedRandomSource([octets]))
        #expect(pkce.verifier == vector["code_verifier"] as? String)
        #expect(pkce.challenge == vector["code_challenge_S256"] as? String)
        #expect(!pkce.description.contains(pkce.verifier))
        var dumped = ""
        dump(pkce, to: &dumped)
        #expect(!dumped.contains(pkce.verifier) && !String(reflecting: pkce).contains(pkce.verifier))
    }

    @Test("RFC 7638 §3.1 canonical JSON and thumbprint")
    func rfc7638Thumbprint() throws {
        let vector = try Vectors.section("rfc7638_section_3_1")
        let jwk = try #require(vector["jwk"] as? [String: String])
        let required = ["e": jwk["e"] ?? "", "kty": jwk["kty"] ?? "", "n": jwk["n"] ?? ""]
        #expect(JWKThumbprint.canonicalJSON(requiredMembers: required) == vector["canonical_json"] as? String)
        #expect(JWKThumbprint.sha256(requiredMembers: required) == vector["thumbprint"] as? String)
    }

    @Test("RFC 9449 example key thumbprint and ath")
    func rfc9449ThumbprintAndAth() throws {
        let vector = try Vectors.section("rfc9449")
        let jwk = try #require(vector["public_jwk"] as? [String: String])
        let publicJWK = ECPublicJWK(x: jwk["x"] ?? "", y: jwk["y"] ?? "")
        #expect(publicJWK.thumbprint == vector["jkt"] as? String)
        let token = try #require(vector["access_token"] as? String)
        #expect(DPoPProofSigner.accessTokenHash(token) == vector["ath"] as? String)
    }

    @Test(
        "RFC 9449 example proofs verify",
        arguments: [
            ("proof_token_request", "POST", "https://server.example.com/token", false),
            ("proof_refresh_request", "POST", "https://server.example.com/token", false),
            ("proof_resource_request", "GET", "https://resource.example.org/protectedresource", true),
        ]
    )
    func rfc9449Proofs(name: String, method: String, url: String, sendsToken: Bool) throws {
        let vector = try Vectors.section("rfc9449")
        let proof = try #require(vector[name] as? String)
        let payload = try #require(vector[name + "_payload"] as? [String: Any])
        let issuedAt = Date(timeIntervalSince1970: try #require(payload["iat"] as? Double))
        let verified = try DPoPProofVerifier().verify(
            proof,
            method: HTTPMethod(rawValue: method),
            url: try #require(URL(string: url)),
            accessToken: sendsToken ? vector["access_token"] as? String : nil,
            now: issuedAt
        )
        #expect(verified.thumbprint == vector["jkt"] as? String)
        #expect(verified.jti == payload["jti"] as? String)
        #expect(verified.issuedAt == issuedAt)
    }

    @Test("A tampered RFC 9449 proof does not verify")
    func tamperedProof() throws {
        let vector = try Vectors.section("rfc9449")
        let proof = try #require(vector["proof_refresh_request"] as? String)
        let payload = try #require(vector["proof_refresh_request_payload"] as? [String: Any])
        let issuedAt = Date(timeIntervalSince1970: try #require(payload["iat"] as? Double))
        let segments = proof.split(separator: ".").map(String.init)
        let otherClaims = Base64URL.encode(
            Array(#"{"jti":"-BwC3ESc6acc2lTc","htm":"POST","htu":"https://evil.example/token","iat":1562265296}"#.utf8)
        )
        let tampered = [segments[0], otherClaims, segments[2]].joined(separator: ".")
        #expect(throws: DPoPProofVerifier.Failure.self) {
            try DPoPProofVerifier().verify(
                tampered,
                method: .post,
                url: URL(string: "https://evil.example/token")!,
                now: issuedAt
            )
        }
    }
}
