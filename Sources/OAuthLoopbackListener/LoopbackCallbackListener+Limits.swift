import NIOCore
import Synchronization

extension LoopbackCallbackListener {
    /// Limits that keep other local processes from tying up the listener (RFC 8252 §8.3).
    public struct Limits: Sendable, Hashable {
        /// How long a silent connection stays open; default 30 seconds.
        ///
        /// A connection carrying the callback being completed is kept until its page is written.
        public var idleTimeout: Duration
        /// How many connections may be open at once; default 16.
        ///
        /// More are closed as soon as they are accepted.
        public var maximumConnections: Int

        /// Creates limits; the defaults suit a browser redirect.
        public init(idleTimeout: Duration = .seconds(30), maximumConnections: Int = 16) {
            self.idleTimeout = idleTimeout
            self.maximumConnections = maximumConnections
        }

        /// ``idleTimeout`` for NIO, clamped to `0...1 day` so no setting can overflow.
        var idleTimeAmount: TimeAmount {
            let (seconds, attoseconds) = min(max(idleTimeout, .zero), .seconds(86_400)).components
            return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }
}

/// Counts open connections, refusing one past the limit.
final class ConnectionCounter: Sendable {
    private let open = Mutex(0)
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot; `false` when all are in use.
    func tryOpen() -> Bool {
        open.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a slot back.
    func release() {
        open.withLock { $0 -= 1 }
    }
}
