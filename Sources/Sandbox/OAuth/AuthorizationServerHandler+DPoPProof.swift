extension AuthorizationServerHandler {
    /// Verifies the DPoP proof (RFC 9449 §4.3) of each request of the routes it wraps.
    ///
    /// The handler reads the proof as ``SandboxContext/dpopProof``. A missing or bad one is refused with
    /// `use_dpop_nonce` or `invalid_dpop_proof` (RFC 9449 §5, §8).
    func dpopProofCheck() -> CheckMiddleware {
        CheckMiddleware { context in
            do throws(DPoPGate.Rejection) {
                context.dpopProof = try gate.check(
                    context.request,
                    accessToken: nil,
                    settings: core.configuration,
                    now: core.now()
                )
            } catch {
                if error.isNonceChallenge { core.monitor.count { $0.nonceChallengesSent += 1 } }
                throw reject(error.reason, error.explanation, error: error.code)
            }
        }
    }
}
