public import Foundation

/// When to refresh an access token: before it expires, by a margin plus random jitter so that many processes do
/// not all refresh at the same instant (atproto.com/specs/oauth, Tokens and Session Lifetime; the reference client uses 10 s plus 0–30 s).
public struct RefreshPolicy: Sendable {
    /// Refresh when the token expires within this margin plus the jitter.
    public var margin: TimeInterval = 10
    /// The largest random addition to the margin.
    public var maximumJitter: TimeInterval = 30

    /// Creates a policy.
    public init(margin: TimeInterval = 10, maximumJitter: TimeInterval = 30) {
        self.margin = margin
        self.maximumJitter = maximumJitter
    }

    /// Whether `session` should be refreshed now; `jitterFraction` in 0...1 picks the jitter.
    public func needsRefresh(_ session: Session, now: Date, jitterFraction: Double) -> Bool {
        guard let expiresAt = session.accessTokenExpiresAt else { return false }
        return expiresAt.timeIntervalSince(now) < margin + maximumJitter * min(max(jitterFraction, 0), 1)
    }
}
