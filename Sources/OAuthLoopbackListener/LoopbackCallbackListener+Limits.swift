import NIOCore

extension LoopbackCallbackListener {
    /// Limits that keep other local processes from tying up the listener (RFC 8252 §8.3).
    public struct Limits: Sendable, Hashable {
        /// The default ``requestHeadTimeout``: a browser sends its request head as soon as it connects.
        public static let defaultRequestHeadTimeout = Duration.seconds(5)

        /// How long a silent connection stays open; default 30 seconds.
        ///
        /// A connection carrying the callback being completed is kept until its page is written.
        public var idleTimeout: Duration
        /// How many connections may be open at once; default 16.
        ///
        /// When all are taken, a new connection takes the place of the oldest one still sending its request head,
        /// which is closed; when every open connection has sent its whole head, the new one is closed as soon as it
        /// is accepted.
        public var maximumConnections: Int
        /// How long a connection has from being accepted to the end of its request head; default
        /// ``defaultRequestHeadTimeout``.
        ///
        /// A connection whose head is not complete by then is closed without an answer, however often it sends a
        /// byte: unlike ``idleTimeout``, this deadline is not put off by what arrives.
        public var requestHeadTimeout: Duration

        /// Creates limits; the defaults suit a browser redirect.
        public init(
            idleTimeout: Duration = .seconds(30),
            maximumConnections: Int = 16,
            requestHeadTimeout: Duration = Limits.defaultRequestHeadTimeout
        ) {
            self.idleTimeout = idleTimeout
            self.maximumConnections = maximumConnections
            self.requestHeadTimeout = requestHeadTimeout
        }

        /// ``idleTimeout`` for NIO, clamped to `0...1 day` so no setting can overflow.
        var idleTimeAmount: TimeAmount { Self.timeAmount(idleTimeout) }

        /// ``requestHeadTimeout`` for NIO, clamped to `0...1 day` so no setting can overflow.
        var requestHeadTimeAmount: TimeAmount { Self.timeAmount(requestHeadTimeout) }

        /// `duration` for NIO, clamped to `0...1 day`.
        private static func timeAmount(_ duration: Duration) -> TimeAmount {
            let (seconds, attoseconds) = min(max(duration, .zero), .seconds(86_400)).components
            return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }
}
