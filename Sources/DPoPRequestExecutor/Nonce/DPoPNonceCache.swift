public import Foundation
import Synchronization

/// The latest `DPoP-Nonce` of each server origin (RFC 9449 §8–9), shared by every request of a process.
///
/// A nonce is not a secret. Each entry keeps when it arrived, so a cache restored from an earlier process (see
/// ``init(entries:onChange:)``) can leave out nonces too old for the server to still accept.
public final class DPoPNonceCache: Sendable {
    /// A nonce and when it arrived.
    public struct Entry: Sendable, Hashable, Codable {
        /// The nonce, as the server sent it.
        public var nonce: String
        /// When it arrived.
        public var receivedAt: Date

        /// Creates an entry.
        public init(nonce: String, receivedAt: Date) {
            self.nonce = nonce
            self.receivedAt = receivedAt
        }
    }

    private let nonces: Mutex<[String: Entry]>
    private let challenges = Atomic<Int>(0)
    private let onChange: (@Sendable ([String: Entry]) -> Void)?

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - entries: nonces to start from, keyed by origin (such as those an earlier process kept); any that
    ///     ``DPoPNonceSyntax`` refuses are dropped.
    ///   - onChange: called with every entry after a nonce changed (not when a server repeats the same one), on
    ///     the caller's thread; for keeping the nonces across processes.
    public init(entries: [String: Entry] = [:], onChange: (@Sendable ([String: Entry]) -> Void)? = nil) {
        self.nonces = Mutex(entries.filter { DPoPNonceSyntax.isValid($0.value.nonce) })
        self.onChange = onChange
    }

    /// The nonce to send to `origin`, if the server gave one.
    public func nonce(for origin: String) -> String? {
        nonces.withLock { $0[origin]?.nonce }
    }

    /// Records the nonce a server sent; a later nonce replaces an earlier one, and one ``DPoPNonceSyntax`` refuses
    /// is ignored.
    public func update(_ nonce: String, for origin: String, at time: Date = Date()) {
        guard DPoPNonceSyntax.isValid(nonce) else { return }
        let changed: [String: Entry]? = nonces.withLock { entries in
            guard entries[origin]?.nonce != nonce else { return nil }
            entries[origin] = Entry(nonce: nonce, receivedAt: time)
            return onChange == nil ? nil : entries
        }
        if let changed { onChange?(changed) }
    }

    /// How many nonce challenges the executors sharing this cache have answered with a retry: each is a round trip
    /// a kept nonce would have saved; for a service's metrics.
    public var challengesAnswered: Int { challenges.load(ordering: .relaxed) }

    /// Counts one nonce challenge answered with a retry.
    func noteChallengeAnswered() {
        challenges.add(1, ordering: .relaxed)
    }

    /// Every origin's entry.
    public func snapshot() -> [String: Entry] {
        nonces.withLock { $0 }
    }

    /// Forgets every nonce.
    public func removeAll() {
        nonces.withLock { $0.removeAll() }
    }
}
