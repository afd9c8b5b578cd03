import Foundation

/// The server-side DPoP checks of one origin: the proof (through `DPoPProofVerifier`), the nonce, and `jti`
/// replay across all origins.
struct DPoPGate: Sendable {
    /// A refused proof: what to count, what to say, and whether it is a nonce challenge.
    struct Rejection: Error, Sendable {
        /// The counter to increment.
        var reason: SandboxRejectionReason
        /// The explanation, for the log and the `error_description`.
        var explanation: String
        /// Whether the client should retry with the nonce it is sent (`use_dpop_nonce`).
        var isNonceChallenge: Bool { reason == .dpopNonceMissing || reason == .dpopNonceStale }
        /// The error code of the answer: `use_dpop_nonce` or `invalid_dpop_proof` (RFC 9449 §7.1, §8).
        var code: String { isNonceChallenge ? "use_dpop_nonce" : "invalid_dpop_proof" }
    }

    /// This origin's nonces.
    let nonces: DPoPNonceState
    /// The replay cache shared by all origins.
    let replays: JTIReplayCache
    /// The proof verifier, with the reference server's `iat` window.
    let verifier = DPoPProofVerifier()

    /// Checks the request's `DPoP` header.
    ///
    /// - Parameters:
    ///   - request: the request; its method and URL must match `htm` and `htu`.
    ///   - accessToken: the access token sent with it, so `ath` is checked; `nil` at the authorization server.
    ///   - settings: the current configuration (nonce period, `jti` lifetime; under the `noDPoPNonces` fault no
    ///     nonce is asked for).
    ///   - now: the current time.
    /// - Returns: the verified proof.
    /// - Throws: a ``Rejection`` naming the failed check.
    func check(
        _ request: SandboxRequest,
        accessToken: String?,
        settings: SandboxConfiguration,
        now: Date
    ) throws(Rejection) -> VerifiedDPoPProof {
        let proofs = request.headerValues("dpop")
        guard !proofs.isEmpty else {
            throw Rejection(reason: .dpopProofMissing, explanation: "no DPoP header: a DPoP proof is required")
        }
        guard proofs.count == 1 else {
            throw Rejection(reason: .dpopProofMissing, explanation: "more than one DPoP header")
        }
        let proof: VerifiedDPoPProof
        do {
            proof = try verifier.verify(
                proofs[0],
                method: request.method,
                url: request.url,
                accessToken: accessToken,
                acceptedNonces: settings.faults.noDPoPNonces
                    ? nil : nonces.accepted(now: now, period: settings.nonceRotationPeriod),
                now: now
            )
        } catch {
            throw Self.rejection(for: error)
        }
        // Kept at least while the proof's `iat` is accepted (RFC 9449 §11.1): one dated ahead is accepted longer.
        let acceptedFor = proof.issuedAt.addingTimeInterval(verifier.maximumAge).timeIntervalSince(now)
        guard replays.insert(proof.jti, now: now, lifetime: max(settings.jtiLifetime, acceptedFor)) else {
            throw Rejection(
                reason: .dpopReplay,
                explanation: "DPoP proof jti was already used; every request needs a new proof"
            )
        }
        return proof
    }

    /// Maps the verifier's failure to a reason; the verifier names the failed check in its `reason`.
    private static func rejection(for failure: DPoPProofVerifier.Failure) -> Rejection {
        switch failure.kind {
        case .nonceMissing:
            return Rejection(
                reason: .dpopNonceMissing,
                explanation: "DPoP proof has no nonce: retry with the nonce in the DPoP-Nonce header"
            )
        case .nonceStale:
            return Rejection(
                reason: .dpopNonceStale,
                explanation: "DPoP proof nonce is stale: retry with the nonce in the DPoP-Nonce header"
            )
        case .invalid:
            break
        }
        let explanation = "DPoP proof \(failure.reason)"
        let words = failure.reason.split(whereSeparator: { !$0.isLetter }).map(String.init)
        let reason: SandboxRejectionReason =
            if words.contains("htu") {
                .dpopURLMismatch
            } else if words.contains("htm") {
                .dpopMethodMismatch
            } else if words.contains("iat") {
                .dpopIssuedAtOutOfRange
            } else if words.contains("ath") {
                .dpopAccessTokenHashMismatch
            } else {
                .dpopProofInvalid
            }
        return Rejection(reason: reason, explanation: explanation)
    }
}
