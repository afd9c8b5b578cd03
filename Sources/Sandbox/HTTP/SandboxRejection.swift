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
typealias RejectionMiddleware = AnsweringMiddleware<SandboxRejection>

extension AnsweringMiddleware<SandboxRejection> {
    /// Answers rejections, counted and logged by `monitor`.
    init(monitor: SandboxMonitor) {
        self.init { rejection, context in
            monitor.rejected(context.request, rejection.reason, rejection.explanation)
            return rejection.answer.response
        }
    }
}
