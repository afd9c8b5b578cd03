import ATProtoPermissions
import Foundation
import HTTPTransport

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

    /// What an XRPC method needs: its HTTP method, the permission its token must grant, and its implementation.
    private struct Method: Sendable {
        var httpMethod: HTTPMethod
        var scope: ScopeNeed
        var run: @Sendable (PDSHandler, SandboxRequest, AuthenticatedCaller) async -> SandboxResponse
    }

    private static let methods: [String: Method] = [
        "com.atproto.server.getSession": Method(httpMethod: .get, scope: .validToken) { $0.getSession($1, $2) },
        "com.atproto.repo.createRecord": Method(httpMethod: .post, scope: .repo(.create)) {
            await $0.createRecord($1, $2)
        },
        "com.atproto.repo.getRecord": Method(httpMethod: .get, scope: .validToken) { await $0.getRecord($1, $2) },
        "com.atproto.repo.listRecords": Method(httpMethod: .get, scope: .validToken) {
            await $0.listRecords($1, $2)
        },
        "com.atproto.repo.deleteRecord": Method(httpMethod: .post, scope: .repo(.delete)) {
            await $0.deleteRecord($1, $2)
        },
        "com.atproto.repo.uploadBlob": Method(httpMethod: .post, scope: .blob) { await $0.uploadBlob($1, $2) },
        "app.bsky.actor.getProfile": Method(httpMethod: .get, scope: .rpc("app.bsky.actor.getProfile")) {
            $0.getProfile($1, $2)
        },
    ]

    /// Counts an XRPC request as soon as its head arrives, so that an upload shows while it is arriving.
    func headArrived(path: String) {
        if path.hasPrefix("/xrpc/") { core.monitor.count { $0.xrpcRequestHeadsReceived += 1 } }
    }

    func handle(_ request: SandboxRequest) async -> SandboxResponse {
        await core.injectedDelay()
        if request.path == "/.well-known/oauth-protected-resource" {
            guard request.method == .get else { return methodNotAllowed(request) }
            // The prmNamesOtherServer fault names the PLC directory, which serves no authorization server metadata.
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
        guard request.path.hasPrefix("/xrpc/") else {
            core.monitor.rejected(request, .notFound, "no such path on the PDS")
            return .xrpcError(404, "NotFound", "no such path: \(request.path)")
        }
        core.monitor.count { $0.xrpcRequestsReceived += 1 }
        let name = String(request.path.dropFirst("/xrpc/".count))
        if name == "com.atproto.identity.resolveHandle" {
            guard request.method == .get else { return methodNotAllowed(request) }
            return resolveHandle(request)
        }
        if name == "com.atproto.lexicon.resolveLexicon" {
            guard request.method == .get else { return methodNotAllowed(request) }
            return resolveLexicon(request)
        }
        if name == "com.atproto.sync.getBlob" {
            guard request.method == .get else { return methodNotAllowed(request) }
            return await optionallyAuthenticated(request) { await getBlob(request) }
        }
        if Self.legacySessionMethods.contains(name) {
            return await legacySession(name, request)
        }
        guard let method = Self.methods[name] else {
            core.monitor.rejected(request, .notFound, "the sandbox PDS does not implement \(name)")
            return .xrpcError(501, "MethodNotImplemented", "the sandbox PDS does not implement \(name)")
        }
        guard request.method == method.httpMethod else {
            return withNonce(methodNotAllowed(request))
        }
        let caller: AuthenticatedCaller
        do {
            caller = try await authenticate(request)
        } catch {
            return withNonce(error.response)
        }
        if let refusal = checkScope(method.scope, request, caller) {
            return withNonce(refusal)
        }
        return withNonce(await method.run(self, request, caller))
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

    /// Answers a method the reference PDS serves without authentication.
    ///
    /// A request with an `Authorization` header is checked as every authenticated method is (token, DPoP proof,
    /// nonce, `cnf.jkt`; or an app-password JWT): a bad one is refused, and the answer carries the nonce.
    private func optionallyAuthenticated(
        _ request: SandboxRequest,
        _ answer: () async -> SandboxResponse
    ) async -> SandboxResponse {
        guard !request.headerValues("authorization").isEmpty else { return await answer() }
        do {
            _ = try await authenticate(request)
        } catch {
            return withNonce(error.response)
        }
        return withNonce(await answer())
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

    private func methodNotAllowed(_ request: SandboxRequest) -> SandboxResponse {
        reject(request, .notFound, 405, "InvalidRequest", "method \(request.method.rawValue) is not allowed here")
    }

    /// Adds the current nonce, rotating first under `newNonceOnEveryResponse`; adds none under `noDPoPNonces`.
    private func withNonce(_ response: SandboxResponse) -> SandboxResponse {
        var response = response
        let settings = core.configuration
        guard !settings.faults.noDPoPNonces else { return response }
        if settings.faults.newNonceOnEveryResponse { gate.nonces.rotateNow() }
        response.setHeader("DPoP-Nonce", gate.nonces.current(now: core.now(), period: settings.nonceRotationPeriod))
        return response
    }
}
