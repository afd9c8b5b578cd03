import Hummingbird

/// Adds the origin's current `DPoP-Nonce` to every answer of the routes it wraps, success or error (RFC 9449 §8),
/// rotating first under the `newNonceOnEveryResponse` fault; adds none under `noDPoPNonces`.
///
/// A ``SandboxRejection`` thrown inside is answered here (``RejectionMiddleware``), so that it carries the nonce too.
struct DPoPNonceMiddleware: RouterMiddleware {
    typealias Context = SandboxContext
    /// The shared state, for the settings and the time.
    let core: SandboxCore
    /// The origin's DPoP checks, which hold its nonces.
    let gate: DPoPGate
    /// Whether a request's answer gets the nonce; by default every one does.
    var applies: @Sendable (SandboxRequest) -> Bool = { _ in true }

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        let rejections = RejectionMiddleware(monitor: core.monitor)
        var response = try await rejections.handle(request, context: context, next: next)
        if applies(context.request), let nonce = gate.responseNonce(core),
            let name = HTTPFields.Element.Name("DPoP-Nonce")
        {
            response.headers[name] = nonce
        }
        return response
    }
}

/// Answers the requests no route takes: `404`, or `405` (RFC 9110 §15.5.6) for a path routed for other methods.
///
/// Added to a router after its routes, so it wraps only the router's not-found answer; a ``SandboxRejection`` the
/// answer throws goes to the router's ``RejectionMiddleware``.
struct UnroutedMiddleware: RouterMiddleware {
    typealias Context = SandboxContext
    /// The paths some route takes.
    let routedPaths: Set<String>
    /// The answer, given the request and whether its path is routed for another method.
    let answer: @Sendable (SandboxRequest, _ otherMethodRouted: Bool) throws -> SandboxResponse

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let routed = routedPaths.contains(context.request.path)
            return try answer(context.request, routed).response
        }
    }
}

extension Router<SandboxContext> {
    /// Answers what no route takes with `answer`; called once every route is added.
    func answerUnrouted(
        _ answer: @escaping @Sendable (SandboxRequest, _ otherMethodRouted: Bool) throws -> SandboxResponse
    ) {
        add(middleware: UnroutedMiddleware(routedPaths: Set(routes.map(\.path.description)), answer: answer))
    }
}

extension DPoPGate {
    /// The nonce a DPoP endpoint's answer carries, after the rotation `newNonceOnEveryResponse` asks for; `nil` under
    /// `noDPoPNonces`.
    func responseNonce(_ core: SandboxCore) -> String? {
        let settings = core.configuration
        guard !settings.faults.noDPoPNonces else { return nil }
        if settings.faults.newNonceOnEveryResponse { nonces.rotateNow() }
        return nonces.current(now: core.now(), period: settings.nonceRotationPeriod)
    }
}
