import Foundation
import HTTPTransport
import Hummingbird
import WireFormat

/// The authorization server origin: metadata, PAR, the authorization page, token and revocation endpoints.
///
/// Every DPoP endpoint (PAR, token, revocation) answers with the current `DPoP-Nonce`, success or error, unless the
/// `noDPoPNonces` fault is on.
struct AuthorizationServerHandler: OriginHandler {
    /// The shared state.
    let core: SandboxCore
    /// This origin's DPoP checks.
    let gate: DPoPGate

    var role: OriginRole { .authorizationServer }

    /// The issuer: this origin.
    var issuer: String { core.origin(.authorizationServer) }

    func addRoutes(to router: Router<SandboxContext>) {
        addControlRoutes(to: router)
        router.add(middleware: BeforeEach { _ in await core.injectedDelay() })
        router.get("/.well-known/oauth-authorization-server") { _ in
            .json(
                200,
                AuthorizationServerMetadata.json(
                    origin: issuer,
                    pdsOrigin: core.origin(.pds),
                    faults: core.configuration.faults
                )
            )
        }
        router.get("/oauth/authorize") { request in await authorize(request) }
        router.post("/oauth/authorize") { request in await consent(request) }
        router.group().add(middleware: DPoPNonceMiddleware(core: core, gate: gate))
            .post("/oauth/par") { request in await pushedAuthorization(request) }
            .post("/oauth/token") { request in await token(request) }
            .post("/oauth/revoke") { request in await revoke(request) }
        router.answerUnrouted { request, otherMethodRouted in
            if otherMethodRouted {
                core.monitor.rejected(request, .notFound, "method \(request.method.rawValue) is not allowed here")
                return .oauthError(405, "invalid_request", "method \(request.method.rawValue) is not allowed")
            }
            core.monitor.rejected(request, .notFound, "no such endpoint on the authorization server")
            return .oauthError(404, "not_found", "no such endpoint: \(request.path)")
        }
    }

    /// Checks the request's DPoP proof; on failure returns the answer to send (`use_dpop_nonce` or
    /// `invalid_dpop_proof`, RFC 9449 §5 and §8), already counted and logged.
    func checkDPoP(_ request: SandboxRequest) throws(SandboxResponseError) -> VerifiedDPoPProof {
        do {
            return try gate.check(request, accessToken: nil, settings: core.configuration, now: core.now())
        } catch {
            core.monitor.rejected(request, error.reason, error.explanation)
            if error.isNonceChallenge {
                core.monitor.count { $0.nonceChallengesSent += 1 }
                throw SandboxResponseError(.oauthError(400, "use_dpop_nonce", error.explanation))
            }
            throw SandboxResponseError(.oauthError(400, "invalid_dpop_proof", error.explanation))
        }
    }

    /// Parses a form-encoded body; on failure returns the `invalid_request` answer, already counted and logged.
    func formParameters(_ request: SandboxRequest) throws(SandboxResponseError) -> [String: String] {
        guard request.mediaType == "application/x-www-form-urlencoded" else {
            throw reject(
                request,
                .invalidRequest,
                "the body must be application/x-www-form-urlencoded, not \(request.mediaType ?? "missing")"
            )
        }
        do {
            return try FormEncoding.parse(String(decoding: request.body, as: UTF8.self))
        } catch {
            throw reject(request, .invalidRequest, "the form body is malformed: \(error.reason)")
        }
    }

    /// Counts and logs a rejection and makes its OAuth error answer (status 400 unless given).
    func reject(
        _ request: SandboxRequest,
        _ reason: SandboxRejectionReason,
        _ explanation: String,
        error: String = "invalid_request",
        status: Int = 400
    ) -> SandboxResponseError {
        core.monitor.rejected(request, reason, explanation)
        return SandboxResponseError(.oauthError(status, error, explanation))
    }
}

/// A finished error answer carried through `Result` and `throws`.
struct SandboxResponseError: Error, Sendable {
    /// The answer to send.
    var response: SandboxResponse

    /// Wraps an answer.
    init(_ response: SandboxResponse) {
        self.response = response
    }
}
