import Foundation
import WireFormat

/// Decodes a proof's header and claims without verifying, to look at what the client wrote.
struct ProofParts {
    let header: [String: Any]
    let claims: [String: Any]

    init(_ proof: String) throws {
        let segments = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let header = Base64URL.decode(segments[0]),
            let claims = Base64URL.decode(segments[1])
        else { throw Vectors.VectorError.malformed }
        self.header = try JSONSerialization.jsonObject(with: header) as? [String: Any] ?? [:]
        self.claims = try JSONSerialization.jsonObject(with: claims) as? [String: Any] ?? [:]
    }
}
