import Hummingbird

/// Verifies the DPoP proof (RFC 9449 §4.3) of each request of the authorization server routes it wraps, for the
/// handler to read as ``SandboxContext/dpopProof``; refuses a missing or bad one with `use_dpop_nonce` or
/// `invalid_dpop_proof` (RFC 9449 §5, §8).
struct DPoPProofMiddleware: RouterMiddleware {
    typealias Context = SandboxContext
    /// The authorization server, whose DPoP checks these are.
    let server: AuthorizationServerHandler
    /// Whether a request without a `DPoP` header goes on unchecked.
    var isOptional = false

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        if !isOptional || !context.request.headerValues("dpop").isEmpty {
            let core = server.core
            do {
                context.dpopProof = try server.gate.check(
                    context.request,
                    accessToken: nil,
                    settings: core.configuration,
                    now: core.now()
                )
            } catch {
                if error.isNonceChallenge { core.monitor.count { $0.nonceChallengesSent += 1 } }
                throw server.reject(error.reason, error.explanation, error: error.code)
            }
        }
        return try await next(request, context)
    }
}
