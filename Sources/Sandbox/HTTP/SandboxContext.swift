import Hummingbird
import Logging

/// The request context of the sandbox's routers: the request as the handlers see it, body included, and what the
/// middleware of its route found out.
struct SandboxContext: RequestContext {
    /// What a context is made from: the logger and the request, read whole.
    struct Source: RequestContextSource {
        var logger: Logger
        var request: SandboxRequest
    }

    var coreContext: CoreRequestContextStorage
    /// The request, with its whole body and the URL it was sent to.
    let request: SandboxRequest
    /// The request's DPoP proof, once ``AuthorizationServerHandler/dpopProofCheck()`` verified it.
    var dpopProof: VerifiedDPoPProof?
    /// The caller, once ``PDSHandler/authentication(optional:)`` authenticated the request.
    var caller: AuthenticatedCaller?

    init(source: Source) {
        self.coreContext = .init(source: source)
        self.request = source.request
    }

    /// What the route's middleware put at `key`; a `500` if none did, which that middleware rules out.
    func required<Value>(_ key: KeyPath<Self, Value?>) throws -> Value {
        guard let value = self[keyPath: key] else { throw HTTPError(.internalServerError) }
        return value
    }
}

/// A route's answer to a request; a ``SandboxRejection`` it throws is answered by a ``RejectionMiddleware``.
typealias SandboxAnswer = @Sendable (SandboxRequest) async throws -> SandboxResponse

extension RouterMethods where Context == SandboxContext {
    /// Answers `GET path` with `answer`.
    @discardableResult
    func get(_ path: RouterPath, answer: @escaping SandboxAnswer) -> Self {
        on(path, method: .get, answer: answer)
    }

    /// Answers `POST path` with `answer`.
    @discardableResult
    func post(_ path: RouterPath, answer: @escaping SandboxAnswer) -> Self {
        on(path, method: .post, answer: answer)
    }

    /// Answers `method path` with `answer`.
    @discardableResult
    func on(_ path: RouterPath, method: HTTPRequest.Method, answer: @escaping SandboxAnswer) -> Self {
        on(path, method: method) { _, context in try await answer(context.request) }
    }
}
