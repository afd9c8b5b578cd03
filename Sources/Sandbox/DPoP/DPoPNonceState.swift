import Foundation
import Synchronization
import WireFormat

/// One origin's DPoP nonces (RFC 9449 §8–9): a current nonce that rotates every period, with the previous, current
/// and next accepted, as the reference server does.
///
/// The next nonce is drawn in advance, so a proof made with it (by a server in a cluster that rotated first) is
/// accepted too. ``rotateNow()`` serves the `newNonceOnEveryResponse` fault.
final class DPoPNonceState: Sendable {
    private struct State {
        var previous: String
        var current: String
        var next: String
        var rotatedAt: Date
    }

    private let state: Mutex<State>
    private let random: any RandomSource

    /// Creates the nonces of one origin, starting at `now`.
    init(random: any RandomSource, now: Date) {
        self.random = random
        let first = Self.makeNonce(random)
        self.state = Mutex(
            State(previous: first, current: first, next: Self.makeNonce(random), rotatedAt: now)
        )
    }

    /// The nonce to send in `DPoP-Nonce`, after any rotation the period calls for.
    func current(now: Date, period: TimeInterval) -> String {
        state.withLock { state in
            advance(&state, now: now, period: period)
            return state.current
        }
    }

    /// The nonces a proof may carry now: previous, current and next.
    func accepted(now: Date, period: TimeInterval) -> Set<String> {
        state.withLock { state in
            advance(&state, now: now, period: period)
            return [state.previous, state.current, state.next]
        }
    }

    /// Rotates once, whatever the time: the current nonce becomes the previous one.
    func rotateNow() {
        state.withLock { rotate(&$0) }
    }

    /// Rotates once per whole period elapsed (three times at most: then all three nonces are new), counting in
    /// `Double`, so no period or clock jump overflows an `Int`; a clock set back (the `clockSkew` fault changed)
    /// starts the period again from `now`.
    private func advance(_ state: inout State, now: Date, period: TimeInterval) {
        let period = max(period, 1)
        let elapsed = now.timeIntervalSince(state.rotatedAt)
        if elapsed < 0 {
            state.rotatedAt = now
            return
        }
        guard period.isFinite, elapsed.isFinite, elapsed >= period else { return }
        let steps = (elapsed / period).rounded(.down)
        for _ in 0..<(steps >= 3 ? 3 : Int(steps)) { rotate(&state) }
        state.rotatedAt = now.addingTimeInterval(-elapsed.truncatingRemainder(dividingBy: period))
    }

    /// The current nonce becomes the previous one, the next the current one, and a new next is drawn.
    private func rotate(_ state: inout State) {
        state.previous = state.current
        state.current = state.next
        state.next = Self.makeNonce(random)
    }

    private static func makeNonce(_ random: any RandomSource) -> String {
        Base64URL.encode(random.bytes(count: 16))
    }
}
