import ATProtoPermissions
import ATProtoSyntax
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
        router.add(middleware: RejectionMiddleware(monitor: core.monitor))
        router.add(
            middleware: CheckMiddleware { context in
                await core.injectedDelay()
                if context.request.path.hasPrefix("/xrpc/") { core.monitor.count { $0.xrpcRequestsReceived += 1 } }
            }
        )
        router.get("/.well-known/oauth-protected-resource") { _ in protectedResourceMetadata() }
        let xrpc = router.group("/xrpc")
        xrpc.get("com.atproto.identity.resolveHandle") { request in try resolveHandle(request) }
        xrpc.get("com.atproto.lexicon.resolveLexicon") { request in try resolveLexicon(request) }
        // Like the reference PDS, getBlob needs no authentication; one sent with it is checked, and answered the nonce.
        xrpc.group()
            .add(middleware: DPoPNonceMiddleware(core: core, gate: gate) { !$0.headerValues("authorization").isEmpty })
            .add(middleware: authentication(optional: true))
            .get("com.atproto.sync.getBlob") { request in try await getBlob(request) }
        for name in Self.legacySessionMethods {
            xrpc.post(RouterPath(name)) { request in try await legacySession(name, request) }
        }
        let unauthenticated = Set(router.routes.map(\.path.description))
        xrpc.group().add(middleware: DPoPNonceMiddleware(core: core, gate: gate))
            .add(middleware: authentication())
            .get("com.atproto.server.getSession", use: authorized(.validToken) { getSession($0, $1) })
            .post("com.atproto.repo.createRecord", use: authorized(.repo(.create)) { try await createRecord($0, $1) })
            .get("com.atproto.repo.getRecord", use: authorized(.validToken) { try await getRecord($0, $1) })
            .get("com.atproto.repo.listRecords", use: authorized(.validToken) { try await listRecords($0, $1) })
            .post("com.atproto.repo.deleteRecord", use: authorized(.repo(.delete)) { try await deleteRecord($0, $1) })
            // Like the reference PDS, putRecord needs both actions, whether the record exists or not.
            .post(
                "com.atproto.repo.putRecord",
                use: authorized(.repo(.create)) { request, caller in
                    try checkScope(.repo(.update), request, caller)
                    return try await putRecord(request, caller)
                }
            )
            .post("com.atproto.repo.uploadBlob", use: authorized(.blob) { try await uploadBlob($0, $1) })
            .get(
                "app.bsky.actor.getProfile",
                use: authorized(.rpc("app.bsky.actor.getProfile")) { try getProfile($0, $1) }
            )
        let authenticatedPaths = Set(router.routes.map(\.path.description)).subtracting(unauthenticated)
        let methods = Dictionary(router.routes.map { ($0.path.description, $0.method.rawValue) }) { first, _ in first }
        router.answerUnrouted { request, otherMethodRouted in
            if otherMethodRouted {
                // As the reference XRPC server answers a query sent as a procedure, or the other way round.
                let method = request.method.rawValue
                let expected = methods[request.path] ?? "another method"
                var refusal = reject(
                    .notFound,
                    400,
                    "InvalidRequest",
                    "Incorrect HTTP method (\(method)) expected \(expected)"
                )
                if authenticatedPaths.contains(request.path), let nonce = gate.responseNonce(core) {
                    refusal.answer.setHeader("DPoP-Nonce", nonce)
                }
                throw refusal
            }
            guard request.path.hasPrefix("/xrpc/") else {
                core.monitor.rejected(request, .notFound, "no such path on the PDS")
                return .xrpcError(404, "NotFound", "no such path: \(request.path)")
            }
            let name = request.path.dropFirst("/xrpc/".count)
            throw reject(.notFound, 501, "MethodNotImplemented", "the sandbox PDS does not implement \(name)")
        }
    }

    /// An XRPC method behind ``PDSHandler/authentication(optional:)`` whose token must grant `scope` (RFC 9449 §7), answered by
    /// `run`.
    private func authorized(
        _ scope: ScopeNeed,
        _ run: @escaping @Sendable (SandboxRequest, AuthenticatedCaller) async throws -> SandboxResponse
    ) -> @Sendable (Request, SandboxContext) async throws -> SandboxResponse {
        { _, context in
            let caller = try context.required(\.caller)
            try checkScope(scope, context.request, caller)
            return try await run(context.request, caller)
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
    private func resolveHandle(_ request: SandboxRequest) throws(SandboxRejection) -> SandboxResponse {
        guard let handle = (try? request.queryParameters())?["handle"], !handle.isEmpty else {
            throw invalid("handle is required")
        }
        guard (try? Handle(validating: handle)) != nil else {
            throw reject(.invalidXRPCInput, 400, "InvalidHandle", "Invalid handle: \(handle)")
        }
        // The reference PDS answers HandleNotFound for a handle under its own domains; the sandbox serves them all.
        guard let account = core.configuration.account(for: handle) else {
            throw reject(.invalidXRPCInput, 400, "HandleNotFound", "Unable to resolve handle")
        }
        return .json(200, ["did": account.did])
    }

    /// A refusal with its XRPC error answer: `{"error": error, "message": message}`.
    func reject(_ reason: SandboxRejectionReason, _ status: Int, _ error: String, _ message: String) -> SandboxRejection
    {
        SandboxRejection(reason: reason, explanation: message, answer: .xrpcError(status, error, message))
    }

    /// A `400` `InvalidRequest` refusal of input the method cannot take.
    func invalid(_ message: String) -> SandboxRejection {
        reject(.invalidXRPCInput, 400, "InvalidRequest", message)
    }
}
