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
        router.add(middleware: CheckMiddleware { _ in await core.injectedDelay() })
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
        let dpop = router.group().add(middleware: DPoPNonceMiddleware(core: core, gate: gate))
        dpop.group().add(middleware: dpopProofCheck())
            .post("/oauth/par") { try await pushedAuthorization($1.request, proof: $1.required(\.dpopProof)) }
            .post("/oauth/token") { try await token($1.request, proof: $1.required(\.dpopProof)) }
            .post("/oauth/revoke") { try await revoke($1.request, proof: $1.required(\.dpopProof)) }
        router.answerUnrouted { request, otherMethodRouted in
            if otherMethodRouted {
                core.monitor.rejected(request, .notFound, "method \(request.method.rawValue) is not allowed here")
                return .oauthError(405, "invalid_request", "method \(request.method.rawValue) is not allowed")
            }
            core.monitor.rejected(request, .notFound, "no such endpoint on the authorization server")
            return .oauthError(404, "not_found", "no such endpoint: \(request.path)")
        }
    }

    /// Parses a form-encoded body, or refuses it with `invalid_request`.
    func formParameters(_ request: SandboxRequest) throws(SandboxRejection) -> [String: String] {
        guard request.mediaType == "application/x-www-form-urlencoded" else {
            throw reject(
                .invalidRequest,
                "the body must be application/x-www-form-urlencoded, not \(request.mediaType ?? "missing")"
            )
        }
        do {
            return try FormEncoding.parse(String(decoding: request.body, as: UTF8.self))
        } catch {
            throw reject(.invalidRequest, "the form body is malformed: \(error.reason)")
        }
    }

    /// A refusal with its OAuth error answer (RFC 6749 §5.2), status 400 unless given.
    func reject(
        _ reason: SandboxRejectionReason,
        _ explanation: String,
        error: String = "invalid_request",
        status: Int = 400
    ) -> SandboxRejection {
        SandboxRejection(reason: reason, explanation: explanation, answer: .oauthError(status, error, explanation))
    }

    /// An `invalid_grant` refusal (RFC 6749 §5.2).
    func invalidGrant(_ reason: SandboxRejectionReason, _ explanation: String) -> SandboxRejection {
        reject(reason, explanation, error: "invalid_grant")
    }

    /// An `invalid_scope` refusal (RFC 6749 §5.2), counted as `invalid_scope`.
    func invalidScope(_ explanation: String) -> SandboxRejection {
        reject(.invalidScope, explanation, error: "invalid_scope")
    }

    /// The form parameter `name`, or an `invalid_request` refusal saying it is required.
    func required(_ form: [String: String], _ name: String) throws(SandboxRejection) -> String {
        guard let value = form[name] else { throw reject(.invalidRequest, "\(name) is required") }
        return value
    }
}
