import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Sandbox
import Testing

/// Runs `Tests/Interop/dpop_interop.py` (pydpop and joserfc) on proofs made here, and verifies proofs it makes.
@Suite("Interoperability with independent DPoP implementations")
struct IndependentVerifierTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/dpop_interop.py")

    struct VerifyCase: Encodable {
        var proof: String
        var htm: String
        var htu: String
        var accessToken: String?
        var nonce: String?
        var now: Int
    }

    struct VerifyResult: Decodable {
        var pydpop: Bool
        var joserfc: Bool
        var thumbprint: String?
        var error: String?
    }

    struct MintRequest: Encodable {
        var htm: String
        var htu: String
        var accessToken: String?
        var nonce: String?
    }

    struct MintResult: Decodable {
        var proof: String
        var jkt: String
    }

    /// Runs the script in `mode` with `input` as JSON (snake_case keys), and decodes what it prints.
    static func runScript<Input: Encodable & Sendable, Output: Decodable & Sendable>(
        _ mode: String,
        _ input: Input,
        as output: Output.Type
    ) async throws -> Output {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let finished = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, mode],
            input: try encoder.encode(input)
        )
        try #require(
            finished.status == 0,
            """
            python3 \(script.lastPathComponent) failed (scripts/test installs pydpop and joserfc into .venv): \
            \(finished.standardError)
            """
        )
        return try JSONDecoder().decode(Output.self, from: finished.outputData)
    }

    @Test("pydpop and joserfc accept our proofs, with and without nonce and ath, and reject a tampered one")
    func ourProofsVerifyElsewhere() async throws {
        let key = DPoPKey()
        let signer = DPoPProofSigner(key: key)
        let now = Int(Date().timeIntervalSince1970)
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(now))
        let target = "https://pds.example.com/xrpc/com.atproto.repo.createRecord"
        var cases: [VerifyCase] = []
        for (nonce, token) in [(nil, nil), ("nonce-1", nil), (nil, "token-1"), ("nonce-2", "token-2")]
            as [(String?, String?)]
        {
            let proof = try signer.proof(
                method: .post,
                url: url(target + "?ignored=1"),
                nonce: nonce,
                accessToken: token,
                issuedAt: issuedAt
            )
            cases.append(
                VerifyCase(proof: proof, htm: "POST", htu: target, accessToken: token, nonce: nonce, now: now)
            )
        }
        var tampered = cases[0]
        tampered.htu = "https://attacker.example/xrpc/com.atproto.repo.createRecord"
        cases.append(tampered)
        var forged = cases[3]
        let parts = forged.proof.split(separator: ".").map(String.init)
        let otherSignature = try String(
            signer.proof(method: .get, url: url(target), issuedAt: issuedAt).split(separator: ".")[2]
        )
        forged.proof = [parts[0], parts[1], otherSignature].joined(separator: ".")
        cases.append(forged)

        let results = try await Self.runScript("verify", cases, as: [VerifyResult].self)
        try #require(results.count == cases.count)
        for result in results.prefix(4) {
            #expect(result.pydpop && result.joserfc, "rejected: \(result.error ?? "")")
            #expect(result.thumbprint == key.thumbprint)
        }
        #expect(results[4].pydpop == false)
        #expect(results[5].pydpop == false && results[5].joserfc == false)
    }

    @Test(
        "our verifier accepts proofs minted by pydpop",
        arguments: [(nil, nil), ("n-7", "tok-7")] as [(String?, String?)]
    )
    func theirProofsVerifyHere(nonce: String?, token: String?) async throws {
        let target = "https://as.example.com/oauth/token"
        let minted = try await Self.runScript(
            "mint",
            MintRequest(htm: "POST", htu: target, accessToken: token, nonce: nonce),
            as: MintResult.self
        )
        let verified = try DPoPProofVerifier()
            .verify(
                minted.proof,
                method: .post,
                url: url(target),
                accessToken: token,
                acceptedNonces: nonce.map { [$0] },
                now: Date()
            )
        #expect(verified.thumbprint == minted.jkt)
    }
}
