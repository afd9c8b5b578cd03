import ATOAuthTesting
import Crypto
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing
import WireFormat

@Suite("Proofs the signer makes")
struct DPoPProofSignerTests {
    let key = DPoPKey()
    let now = Date(timeIntervalSince1970: 1_700_000_000.75)

    @Test("the header is typ dpop+jwt, alg ES256 and the public JWK only")
    func header() throws {
        let proof = try DPoPProofSigner(key: key).proof(method: .get, url: url("https://pds.example/x"), issuedAt: now)
        let parts = try ProofParts(proof)
        #expect(parts.header["typ"] as? String == "dpop+jwt")
        #expect(parts.header["alg"] as? String == "ES256")
        let jwk = try #require(parts.header["jwk"] as? [String: String])
        #expect(jwk == ["kty": "EC", "crv": "P-256", "x": key.publicJWK.x, "y": key.publicJWK.y])
    }

    @Test("claims carry jti, htm, htu without query, and iat in whole seconds; no nonce or ath unless given")
    func minimalClaims() throws {
        let proof = try DPoPProofSigner(key: key)
            .proof(method: .post, url: url("https://AS.Example:443/oauth/par?x=1#frag"), issuedAt: now)
        let claims = try ProofParts(proof).claims
        #expect(Set(claims.keys) == ["jti", "htm", "htu", "iat"])
        #expect(claims["htm"] as? String == "POST")
        #expect(claims["htu"] as? String == "https://as.example/oauth/par")
        #expect(claims["iat"] as? Int == 1_700_000_000)
        let jti = try #require(claims["jti"] as? String)
        #expect(try #require(Base64URL.decode(jti)).count * 8 >= 96)
    }

    @Test("nonce and ath appear when a nonce and an access token are given")
    func nonceAndAth() throws {
        let proof = try DPoPProofSigner(key: key)
            .proof(
                method: .get,
                url: url("https://pds.example/xrpc/a"),
                nonce: "n\"1",
                accessToken: "tok",
                issuedAt: now
            )
        let claims = try ProofParts(proof).claims
        #expect(claims["nonce"] as? String == "n\"1")
        #expect(claims["ath"] as? String == DPoPProofSigner.accessTokenHash("tok"))
        let verified = try DPoPProofVerifier()
            .verify(
                proof,
                method: .get,
                url: url("https://pds.example/xrpc/a?q=2"),
                accessToken: "tok",
                acceptedNonces: ["n\"1"],
                now: now
            )
        #expect(verified.thumbprint == key.thumbprint)
    }

    @Test("every proof has a new jti")
    func uniqueJTI() throws {
        let signer = DPoPProofSigner(key: key)
        var seen = Set<String>()
        for _ in 0..<500 {
            let proof = try signer.proof(method: .get, url: url("https://pds.example/"), issuedAt: now)
            seen.insert(try #require(try ProofParts(proof).claims["jti"] as? String))
        }
        #expect(seen.count == 500)
    }

    @Test("the signature is a raw 64-byte R‖S value")
    func rawSignature() throws {
        let proof = try DPoPProofSigner(key: key).proof(method: .get, url: url("https://pds.example/"), issuedAt: now)
        let signature = try #require(proof.split(separator: ".").last)
        #expect(Base64URL.decode(signature)?.count == 64)
    }

    @Test(
        "htu normalization",
        arguments: [
            ("https://Example.COM/a/b?c=d#e", "https://example.com/a/b"),
            ("https://example.com", "https://example.com/"),
            ("https://example.com:443/x", "https://example.com/x"),
            ("https://example.com:8443/x", "https://example.com:8443/x"),
            ("HTTP://127.0.0.1:80/cb", "http://127.0.0.1/cb"),
            ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/cb"),
            ("https://user:pw@example.com/p%20q", "https://example.com/p%20q"),
        ]
    )
    func htuNormalization(input: String, expected: String) throws {
        #expect(try DPoPTarget.htu(for: url(input)) == expected)
    }

    @Test("a URL that is not http or https has no htu", arguments: ["thtps://pds.example.com/x", "ftp://example.com/"])
    func htuOfOtherSchemes(input: String) {
        #expect(throws: DPoPError.invalidTarget("the URL is not an http or https URL")) {
            try DPoPTarget.htu(for: url(input))
        }
    }

    @Test("a stored key round-trips and keeps its thumbprint; its description hides the scalar")
    func keyPersistence() throws {
        let restored = try DPoPKey(persistedRepresentation: key.persistedRepresentation)
        #expect(restored.thumbprint == key.thumbprint)
        #expect(!key.description.contains(Base64URL.encode(key.privateKey.rawRepresentation)))
        #expect(throws: DPoPError.self) { try DPoPKey(persistedRepresentation: Data([9, 1, 2])) }
    }
}
