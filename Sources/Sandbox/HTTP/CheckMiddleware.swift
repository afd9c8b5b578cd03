import Hummingbird

/// Runs a check on each request of the routes it wraps and keeps what it found in the context, for the handler to
/// read; a refusal it throws goes to the router's ``RejectionMiddleware``.
///
/// The check may also be a step that finds nothing, run before each request: the injected delay, a counter.
struct CheckMiddleware: RouterMiddleware {
    typealias Context = SandboxContext
    /// The header that makes the check run; `nil` to check every request.
    var onlyWith: String?
    /// The check: it records what it found in the context, or throws a ``SandboxRejection``.
    let check: @Sendable (inout SandboxContext) async throws -> Void

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        if onlyWith.map({ !context.request.headerValues($0).isEmpty }) ?? true {
            try await check(&context)
        }
        return try await next(request, context)
    }
}
