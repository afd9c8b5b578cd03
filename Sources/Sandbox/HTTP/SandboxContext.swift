import Hummingbird
import Logging

/// The request context of the sandbox's routers: the request as the handlers see it, body included.
struct SandboxContext: RequestContext {
    /// What a context is made from: the logger and the request, read whole.
    struct Source: RequestContextSource {
        var logger: Logger
        var request: SandboxRequest
    }

    var coreContext: CoreRequestContextStorage
    /// The request, with its whole body and the URL it was sent to.
    let request: SandboxRequest

    init(source: Source) {
        self.coreContext = .init(source: source)
        self.request = source.request
    }
}

extension RouterMethods where Context == SandboxContext {
    /// Answers `GET path` with `answer`.
    @discardableResult
    func get(_ path: RouterPath, answer: @escaping @Sendable (SandboxRequest) async -> SandboxResponse) -> Self {
        on(path, method: .get, answer: answer)
    }

    /// Answers `POST path` with `answer`.
    @discardableResult
    func post(_ path: RouterPath, answer: @escaping @Sendable (SandboxRequest) async -> SandboxResponse) -> Self {
        on(path, method: .post, answer: answer)
    }

    /// Answers `method path` with `answer`.
    @discardableResult
    func on(
        _ path: RouterPath,
        method: HTTPRequest.Method,
        answer: @escaping @Sendable (SandboxRequest) async -> SandboxResponse
    ) -> Self {
        on(path, method: method) { _, context in await answer(context.request) }
    }
}
