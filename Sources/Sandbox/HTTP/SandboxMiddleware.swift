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

/// Answers an error of type `Caught` that the routes it wraps throw, with what `answer` makes of it; an error
/// `answer` leaves (`nil`) goes on.
struct AnsweringMiddleware<Caught: Error>: RouterMiddleware {
    typealias Context = SandboxContext
    /// The answer to an error, or `nil` to let it go on.
    let answer: @Sendable (Caught, SandboxContext) throws -> Response?

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as Caught {
            guard let response = try answer(error, context) else { throw error }
            return response
        }
    }
}

extension Router<SandboxContext> {
    /// Answers the requests no route takes with `answer`: `404`, or `405` for a path routed for other methods.
    ///
    /// Called once every route is added, so that it wraps only the router's not-found answer (RFC 9110 §15.5.6); a
    /// ``SandboxRejection`` the answer throws goes to the router's ``RejectionMiddleware``.
    func answerUnrouted(
        _ answer: @escaping @Sendable (SandboxRequest, _ otherMethodRouted: Bool) throws -> SandboxResponse
    ) {
        // The methods of each path, for the `Allow` a 405 carries (RFC 9110 §15.5.6).
        let allowed = Dictionary(grouping: routes, by: \.path.description)
            .mapValues { $0.map(\.method.rawValue).sorted().joined(separator: ", ") }
        add(
            middleware: AnsweringMiddleware<HTTPError> { error, context in
                guard error.status == .notFound else { return nil }
                let methods = allowed[context.request.path]
                var response = try answer(context.request, methods != nil).response
                if let methods, response.status == .methodNotAllowed { response.headers[.allow] = methods }
                return response
            }
        )
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
