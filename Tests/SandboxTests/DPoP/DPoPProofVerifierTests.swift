import ATOAuthTesting
import Crypto
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing
import WireFormat

@Suite("The verifier rejects bad proofs")
struct DPoPProofVerifierTests {
    let signer = DPoPProofSigner(key: DPoPKey())
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let target = "https://as.example/oauth/token"

    func verify(
        _ proof: String,
        method: HTTPMethod = .post,
        target: String? = nil,
        accessToken: String? = nil,
        nonces: Set<String>? = nil,
        at time: Date? = nil
    ) throws -> VerifiedDPoPProof {
        try DPoPProofVerifier()
            .verify(
                proof,
                method: method,
                url: url(target ?? self.target),
                accessToken: accessToken,
                acceptedNonces: nonces,
                now: time ?? now
            )
    }

    func proof(nonce: String? = nil, token: String? = nil, at time: Date? = nil) throws -> String {
        try signer.proof(method: .post, url: url(target), nonce: nonce, accessToken: token, issuedAt: time ?? now)
    }

    @Test("a good proof verifies, and its thumbprint is the key's (RFC 7638)")
    func acceptsWithThumbprint() throws {
        #expect(try verify(proof()).thumbprint == signer.key.publicJWK.thumbprint)
    }

    @Test(
        "htu is compared after RFC 3986 normalization, without query and fragment",
        arguments: [
            "HTTPS://AS.example/oauth/token", "https://as.example:443/oauth/token", "https://as.example/oauth/%74oken",
            "https://as.example/oauth/token?x=1#f",
        ]
    )
    func normalizedTarget(_ requested: String) throws {
        #expect(try verify(proof(), target: requested).htu == target)
    }

    @Test("a good proof verifies")
    func accepts() throws {
        #expect(try verify(proof()).htu == target)
    }

    @Test("htm and htu must match the request")
    func methodAndTarget() throws {
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(), method: .get) }
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(), target: "https://as.example/oauth/par") }
        #expect(throws: DPoPProofVerifier.Failure.self) {
            try verify(proof(), target: "https://other.example/oauth/token")
        }
    }

    @Test("iat outside the window is refused")
    func issuedAtWindow() throws {
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(at: now.addingTimeInterval(-191))) }
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(at: now.addingTimeInterval(181))) }
        #expect(try verify(proof(at: now.addingTimeInterval(-189))).jti.isEmpty == false)
    }

    @Test("a required nonce must be present and current")
    func nonce() throws {
        let missing = #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(), nonces: ["a"]) }
        #expect(missing?.kind == .nonceMissing)
        let stale = #expect(throws: DPoPProofVerifier.Failure.self) {
            try verify(proof(nonce: "old"), nonces: ["a", "b"])
        }
        #expect(stale?.kind == .nonceStale)
        #expect(try verify(proof(nonce: "b"), nonces: ["a", "b"]).nonce == "b")
    }

    @Test("ath must match the access token and be absent without one")
    func accessTokenHash() throws {
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(token: "a"), accessToken: "b") }
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(), accessToken: "b") }
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(proof(token: "a")) }
        #expect(try verify(proof(token: "a"), accessToken: "a").ath != nil)
    }

    @Test("a header with the wrong typ, alg none, or a private jwk is refused")
    func header() throws {
        let good = try proof().split(separator: ".").map(String.init)
        let jwk = signer.key.publicJWK
        let headers = [
            #"{"typ":"JWT","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)"}}"#,
            #"{"typ":"dpop+jwt","alg":"none","jwk":{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)"}}"#,
            #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)","d":"AA"}}"#,
            #"{"typ":"dpop+jwt","alg":"ES256"}"#,
        ]
        for header in headers {
            let forged = [Base64URL.encode(Array(header.utf8)), good[1], good[2]].joined(separator: ".")
            #expect(throws: DPoPProofVerifier.Failure.self) { try verify(forged) }
        }
    }

    @Test("a DER signature, a wrong key, and garbage are refused")
    func signature() throws {
        let good = try proof().split(separator: ".").map(String.init)
        let raw = try #require(Base64URL.decode(good[2]))
        let der = try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation
        let withDER = [good[0], good[1], Base64URL.encode(der)].joined(separator: ".")
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(withDER) }
        let other = try DPoPProofSigner(key: DPoPKey()).proof(method: .post, url: url(target), issuedAt: now)
        let mixed = [good[0], good[1], String(other.split(separator: ".")[2])].joined(separator: ".")
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify(mixed) }
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify("a.b") }
        #expect(throws: DPoPProofVerifier.Failure.self) { try verify("!!.??.**") }
    }

    /// A proof signed with a key of its own over `header` and `claims` added to a good proof's.
    func signed(header extraHeader: [String: Any] = [:], claims extraClaims: [String: Any] = [:]) throws -> String {
        let key = P256.Signing.PrivateKey()
        let jwk = ECPublicJWK(key.publicKey)
        var header: [String: Any] = [
            "typ": "dpop+jwt", "alg": "ES256", "jwk": ["kty": "EC", "crv": "P-256", "x": jwk.x, "y": jwk.y],
        ]
        header.merge(extraHeader) { $1 }
        var claims: [String: Any] = [
            "jti": UUID().uuidString, "htm": "POST", "htu": target, "iat": Int(now.timeIntervalSince1970),
        ]
        claims.merge(extraClaims) { $1 }
        let input = try [header, claims].map { Base64URL.encode(try JSONSerialization.data(withJSONObject: $0)) }
            .joined(separator: ".")
        let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }

    @Test("a proof this verifier signs for the test verifies, so the refusals below are of the one change each")
    func signedForTest() throws {
        #expect(try verify(signed()).htu == target)
        #expect(
            try verify(signed(claims: ["exp": now.timeIntervalSince1970 + 60, "nbf": now.timeIntervalSince1970])).htu
                == target
        )
    }

    @Test(
        "crit, an expired exp, a future nbf and credentials in htu are refused (RFC 7515 §4.1.11, RFC 7519 §4.1.4-5)",
        arguments: [
            ("crit", ["crit": ["x-unknown"]], [:]),
            ("expired", [:], ["exp": 1_700_000_000 - 3600]),
            ("not valid yet", [:], ["nbf": 1_700_000_000 + 3600]),
            ("exp not a number", [:], ["exp": "soon"]),
            ("credentials", [:], ["htu": "https://user:pw@as.example/oauth/token"]),
        ] as [(String, [String: any Sendable], [String: any Sendable])]
    )
    func refusedClaims(_ name: String, header: [String: any Sendable], claims: [String: any Sendable]) throws {
        #expect(throws: DPoPProofVerifier.Failure.self, "\(name)") {
            try verify(signed(header: header, claims: claims))
        }
    }
}
