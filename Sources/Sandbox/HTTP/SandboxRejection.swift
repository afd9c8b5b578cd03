import Hummingbird

/// A refused request, thrown by a route or its middleware: what to count and log, and the answer.
struct SandboxRejection: Error, Sendable {
    /// The counter to increment.
    var reason: SandboxRejectionReason
    /// The explanation, for the log.
    var explanation: String
    /// The answer to send.
    var answer: SandboxResponse
}

/// Answers a ``SandboxRejection`` thrown inside the routes it wraps, counting and logging it: the one place a thrown
/// refusal is logged.
struct RejectionMiddleware: RouterMiddleware {
    typealias Context = SandboxContext
    /// Where rejections are counted and logged.
    let monitor: SandboxMonitor

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let rejection as SandboxRejection {
            monitor.rejected(context.request, rejection.reason, rejection.explanation)
            return rejection.answer.response
        }
    }
}
