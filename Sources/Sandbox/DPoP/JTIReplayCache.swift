import Foundation
import Synchronization

/// The `jti` of every accepted proof, across all endpoints of all origins, remembered for a while to refuse
/// replays (RFC 9449 §11.1).
final class JTIReplayCache: Sendable {
    private struct State {
        var expiries: [String: Date] = [:]
        var lastPurge = Date.distantPast
    }

    private let state = Mutex(State())

    /// Creates an empty cache.
    init() {}

    /// Records a `jti`; returns `false` when it was already recorded and has not expired.
    func insert(_ jti: String, now: Date, lifetime: TimeInterval) -> Bool {
        state.withLock { state in
            if now.timeIntervalSince(state.lastPurge) > 10 {
                state.expiries = state.expiries.filter { $0.value > now }
                state.lastPurge = now
            }
            if let expiry = state.expiries[jti], expiry > now { return false }
            state.expiries[jti] = now.addingTimeInterval(lifetime)
            return true
        }
    }
}
