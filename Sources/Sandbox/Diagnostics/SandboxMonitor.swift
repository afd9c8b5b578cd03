import Logging
import Synchronization

/// Counts what happens and logs it.
///
/// Every rejection is logged with its reason in words, so a client developer learns what was wrong. Never given a
/// whole token.
final class SandboxMonitor: Sendable {
    private let counters = Mutex(SandboxCounters())
    /// The injected logger.
    let logger: Logger

    /// Creates a monitor that logs to `logger`.
    init(logger: Logger) {
        self.logger = logger
    }

    /// A copy of the counters.
    var snapshot: SandboxCounters { counters.withLock { $0 } }

    /// Sets every counter back to zero.
    func reset() {
        counters.withLock { $0 = SandboxCounters() }
    }

    /// Changes the counters.
    func count(_ change: (inout SandboxCounters) -> Void) {
        counters.withLock { change(&$0) }
    }

    /// Counts and logs a rejected request: `rejected POST /oauth/token: <explanation>`.
    ///
    /// Nonce challenges are routine (every client gets one first) and are logged at `info`; other rejections at
    /// `notice`.
    func rejected(_ request: SandboxRequest, _ reason: SandboxRejectionReason, _ explanation: String) {
        counters.withLock { $0.rejections[reason, default: 0] += 1 }
        let isRoutine = reason == .dpopNonceMissing || reason == .dpopNonceStale
        logger.log(
            level: isRoutine ? .info : .notice,
            "rejected \(request.summary): \(explanation)",
            metadata: ["reason": "\(reason.rawValue)"]
        )
    }

    /// Logs something that went right, at `info`.
    func note(_ request: SandboxRequest, _ message: String) {
        logger.info("\(request.summary): \(message)")
    }

    /// A token shortened for logs: its first 6 characters and an ellipsis.
    static func redact(_ token: String) -> String {
        String(token.prefix(6)) + "…"
    }
}
