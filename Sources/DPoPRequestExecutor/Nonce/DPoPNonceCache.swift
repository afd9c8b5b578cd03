import Synchronization

/// The latest `DPoP-Nonce` of each server origin (RFC 9449 §8–9), shared by every request of a process.
public final class DPoPNonceCache: Sendable {
    private let nonces = Mutex<[String: String]>([:])

    /// Creates an empty cache.
    public init() {}

    /// The nonce to send to `origin`, if the server gave one.
    public func nonce(for origin: String) -> String? {
        nonces.withLock { $0[origin] }
    }

    /// Records the nonce a server sent; a later nonce replaces an earlier one.
    public func update(_ nonce: String, for origin: String) {
        nonces.withLock { $0[origin] = nonce }
    }

    /// Forgets every nonce.
    public func removeAll() {
        nonces.withLock { $0.removeAll() }
    }
}
