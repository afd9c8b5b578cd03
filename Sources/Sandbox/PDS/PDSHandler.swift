import ATProtoPermissions
import Foundation
import HTTPTransport
import Hummingbird

/// The PDS origin: protected resource metadata, the handle resolver, DPoP-authenticated XRPC methods, and the
/// legacy app-password sessions (Bearer JWTs) beside them.
///
/// Every authenticated XRPC answer, success or error, carries the PDS's current `DPoP-Nonce`, unless the
/// `noDPoPNonces` fault is on; so does `com.atproto.sync.getBlob`'s when it was sent with an `Authorization` header.
struct PDSHandler: OriginHandler {
    /// The shared state.
    let core: SandboxCore
    /// This origin's DPoP checks.
    let gate: DPoPGate

    var role: OriginRole { .pds }

    /// Counts an XRPC request as soon as its head arrives, so that an upload shows while it is arriving.
    func headArrived(path: String) {
        if path.hasPrefix("/xrpc/") { core.monitor.count { $0.xrpcRequestHeadsReceived += 1 } }
    }

    func addRoutes(to router: Router<SandboxContext>) {
        router.add(
            middleware: BeforeEach { request in
                await core.injectedDelay()
                if request.path.hasPrefix("/xrpc/") { core.monitor.count { $0.xrpcRequestsReceived += 1 } }
            }
        )
        router.get("/.well-known/oauth-protected-resource") { _ in protectedResourceMetadata() }
        let xrpc = router.group("/xrpc")
        xrpc.get("com.atproto.identity.resolveHandle") { request in resolveHandle(request) }
        xrpc.get("com.atproto.lexicon.resolveLexicon") { request in resolveLexicon(request) }
        // Like the reference PDS, getBlob needs no authentication; one sent with it is checked, and answered the nonce.
        xrpc.group()
            .add(middleware: DPoPNonceMiddleware(core: core, gate: gate) { !$0.headerValues("authorization").isEmpty })
            .get("com.atproto.sync.getBlob") { request in await optionallyAuthenticated(request) }
        for name in Self.legacySessionMethods {
            xrpc.post(RouterPath(name)) { request in await legacySession(name, request) }
        }
        let unauthenticated = Set(router.routes.map(\.path.description))
        xrpc.group().add(middleware: DPoPNonceMiddleware(core: core, gate: gate))
            .get("com.atproto.server.getSession", answer: authenticated(.validToken) { getSession($0, $1) })
            .post("com.atproto.repo.createRecord", answer: authenticated(.repo(.create)) { await createRecord($0, $1) })
            .get("com.atproto.repo.getRecord", answer: authenticated(.validToken) { await getRecord($0, $1) })
            .get("com.atproto.repo.listRecords", answer: authenticated(.validToken) { await listRecords($0, $1) })
            .post("com.atproto.repo.deleteRecord", answer: authenticated(.repo(.delete)) { await deleteRecord($0, $1) })
            .post("com.atproto.repo.uploadBlob", answer: authenticated(.blob) { await uploadBlob($0, $1) })
            .get(
                "app.bsky.actor.getProfile",
                answer: authenticated(.rpc("app.bsky.actor.getProfile")) { getProfile($0, $1) }
            )
        let authenticatedPaths = Set(router.routes.map(\.path.description)).subtracting(unauthenticated)
        router.answerUnrouted { request, otherMethodRouted in
            if otherMethodRouted {
                let method = request.method.rawValue
                var refusal = reject(request, .notFound, 405, "InvalidRequest", "method \(method) is not allowed here")
                if authenticatedPaths.contains(request.path), let nonce = gate.responseNonce(core) {
                    refusal.setHeader("DPoP-Nonce", nonce)
                }
                return refusal
            }
            guard request.path.hasPrefix("/xrpc/") else {
                core.monitor.rejected(request, .notFound, "no such path on the PDS")
                return .xrpcError(404, "NotFound", "no such path: \(request.path)")
            }
            let name = request.path.dropFirst("/xrpc/".count)
            return reject(request, .notFound, 501, "MethodNotImplemented", "the sandbox PDS does not implement \(name)")
        }
    }

    /// An XRPC method that needs a valid token (RFC 9449 §7) granting `scope`, answered by `run`.
    private func authenticated(
        _ scope: ScopeNeed,
        _ run: @escaping @Sendable (SandboxRequest, AuthenticatedCaller) async -> SandboxResponse
    ) -> @Sendable (SandboxRequest) async -> SandboxResponse {
        { request in
            let caller: AuthenticatedCaller
            do throws(SandboxResponseError) {
                caller = try await authenticate(request)
            } catch {
                return error.response
            }
            if let refusal = checkScope(scope, request, caller) { return refusal }
            return await run(request, caller)
        }
    }

    /// The protected resource metadata (RFC 9728 §3); the `prmNamesOtherServer` fault names the PLC directory, which
    /// serves no authorization server metadata.
    private func protectedResourceMetadata() -> SandboxResponse {
        let server = core.configuration.faults.prmNamesOtherServer ? OriginRole.plcDirectory : .authorizationServer
        return .json(
            200,
            [
                "resource": core.origin(.pds),
                "authorization_servers": [core.origin(server)],
                "scopes_supported": OAuthScope.supported,
                "bearer_methods_supported": ["header"],
                "resource_documentation": "https://atproto.com",
            ]
        )
    }

    /// `com.atproto.identity.resolveHandle`: the DID of a hosted handle; no authentication.
    private func resolveHandle(_ request: SandboxRequest) -> SandboxResponse {
        guard let handle = (try? request.queryParameters())?["handle"], !handle.isEmpty else {
            return reject(request, .invalidXRPCInput, 400, "InvalidRequest", "handle is required")
        }
        guard !handle.hasPrefix("did:"), let account = core.configuration.account(for: handle) else {
            return reject(request, .invalidXRPCInput, 400, "InvalidRequest", "Unable to resolve handle: \(handle)")
        }
        return .json(200, ["did": account.did])
    }

    /// `com.atproto.sync.getBlob`, which the reference PDS serves without authentication.
    ///
    /// A request with an `Authorization` header is checked as every authenticated method is (token, DPoP proof,
    /// nonce, `cnf.jkt`; or an app-password JWT): a bad one is refused.
    private func optionallyAuthenticated(_ request: SandboxRequest) async -> SandboxResponse {
        guard !request.headerValues("authorization").isEmpty else { return await getBlob(request) }
        do {
            _ = try await authenticate(request)
        } catch {
            return error.response
        }
        return await getBlob(request)
    }

    /// Counts and logs a rejection and makes its XRPC error answer.
    func reject(
        _ request: SandboxRequest,
        _ reason: SandboxRejectionReason,
        _ status: Int,
        _ error: String,
        _ message: String
    ) -> SandboxResponse {
        core.monitor.rejected(request, reason, message)
        return .xrpcError(status, error, message)
    }
}
