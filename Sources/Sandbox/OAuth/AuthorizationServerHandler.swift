import Foundation
import HTTPTransport
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

    func handle(_ request: SandboxRequest) async -> SandboxResponse {
        if let response = control(request) { return response }
        await core.injectedDelay()
        switch (request.method, request.path) {
        case (.get, "/.well-known/oauth-authorization-server"):
            return .json(
                200,
                AuthorizationServerMetadata.json(
                    origin: issuer,
                    pdsOrigin: core.origin(.pds),
                    faults: core.configuration.faults
                )
            )
        case (.post, "/oauth/par"):
            return withNonce(await pushedAuthorization(request))
        case (.get, "/oauth/authorize"):
            return await authorize(request)
        case (.post, "/oauth/authorize"):
            return await consent(request)
        case (.post, "/oauth/token"):
            return withNonce(await token(request))
        case (.post, "/oauth/revoke"):
            return withNonce(await revoke(request))
        case (_, "/.well-known/oauth-authorization-server"), (_, "/oauth/par"), (_, "/oauth/authorize"),
            (_, "/oauth/token"), (_, "/oauth/revoke"):
            core.monitor.rejected(request, .notFound, "method \(request.method.rawValue) is not allowed here")
            return .oauthError(405, "invalid_request", "method \(request.method.rawValue) is not allowed")
        default:
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

    /// Adds the current nonce to a DPoP endpoint's answer, rotating first under `newNonceOnEveryResponse`; adds
    /// none under `noDPoPNonces`.
    private func withNonce(_ response: SandboxResponse) -> SandboxResponse {
        var response = response
        let settings = core.configuration
        guard !settings.faults.noDPoPNonces else { return response }
        if settings.faults.newNonceOnEveryResponse { gate.nonces.rotateNow() }
        response.setHeader("DPoP-Nonce", gate.nonces.current(now: core.now(), period: settings.nonceRotationPeriod))
        return response
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
