import Crypto
import DPoPRequestExecutor
import HTTPTransport

/// DPoP proofs per second against raw P-256 signatures per second over the same bytes, on one thread's CPU clock.
///
/// The two loops alternate in rounds (signatures first in even rounds, proofs first in odd ones), and the ratio
/// is the median of the rounds' ratios, so a burst of load on the machine hits both sides alike.
enum ProofThroughput {
    /// What the scenario found.
    struct Result: Sendable {
        /// CPU time of one raw signature (median over rounds).
        var signatureCPU: Double
        /// CPU time of one whole proof (median over rounds).
        var proofCPU: Double
        /// Proofs per second ÷ signatures per second (median of the rounds' ratios).
        var ratio: Double
        /// The length of the signing input, in bytes.
        var signingInputBytes: Int
    }

    /// Runs `rounds` rounds of `batch` signatures and `batch` proofs.
    static func run(rounds: Int, batch: Int) throws -> Result {
        let key = DPoPKey()
        let signer = DPoPProofSigner(key: key)
        let makeProof = { () throws -> String in
            try signer.proof(
                method: .get,
                htu: Workload.htu,
                nonce: Workload.nonce,
                accessToken: Workload.accessToken,
                issuedAt: Workload.issuedAt
            )
        }
        let sample = try makeProof()
        guard let lastDot = sample.utf8.lastIndex(of: UInt8(ascii: ".")) else { throw BenchError("not a JWS") }
        let signingInput = Array(sample.utf8[..<lastDot])
        let signatures = {
            try Clocks.measure(Clocks.threadCPU) {
                for _ in 0..<batch {
                    Sink.consume(try key.privateKey.signature(for: signingInput).rawRepresentation.count)
                }
            }
        }
        let proofs = {
            try Clocks.measure(Clocks.threadCPU) {
                for _ in 0..<batch { Sink.consume(try makeProof().utf8.count) }
            }
        }
        _ = try signatures()
        _ = try proofs()
        var signatureTimes: [Double] = []
        var proofTimes: [Double] = []
        var ratios: [Double] = []
        for round in 0..<rounds {
            let signature: Duration
            let proof: Duration
            if round.isMultiple(of: 2) {
                signature = try signatures()
                proof = try proofs()
            } else {
                proof = try proofs()
                signature = try signatures()
            }
            let perSignature = signature.seconds / Double(batch)
            let perProof = proof.seconds / Double(batch)
            signatureTimes.append(perSignature)
            proofTimes.append(perProof)
            ratios.append(perSignature / perProof)
        }
        return Result(
            signatureCPU: Samples.median(signatureTimes),
            proofCPU: Samples.median(proofTimes),
            ratio: Samples.median(ratios),
            signingInputBytes: signingInput.count
        )
    }
}
