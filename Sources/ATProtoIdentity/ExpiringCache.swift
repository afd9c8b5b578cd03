import Foundation

/// A small in-memory store whose entries expire, for identity results during sign-in (atproto.com/specs/oauth, Security Concerns).
actor ExpiringCache<Key: Hashable & Sendable, Value: Sendable> {
    private var entries: [Key: (value: Value, expiry: Date)] = [:]
    private let timeToLive: TimeInterval
    private let capacity: Int
    private let now: @Sendable () -> Date

    /// Creates a cache whose entries live `timeToLive` seconds by the injected clock, holding at most `capacity`.
    init(timeToLive: TimeInterval, capacity: Int = 256, now: @escaping @Sendable () -> Date) {
        self.timeToLive = timeToLive
        self.capacity = capacity
        self.now = now
    }

    /// The value stored for `key` while it has not expired.
    func value(for key: Key) -> Value? {
        guard let entry = entries[key] else { return nil }
        guard now() < entry.expiry else {
            entries[key] = nil
            return nil
        }
        return entry.value
    }

    /// Stores a value until `timeToLive` seconds from now, dropping expired entries when the cache is full.
    func store(_ value: Value, for key: Key) {
        let current = now()
        if entries.count >= capacity {
            entries = entries.filter { current < $0.value.expiry }
            if entries.count >= capacity { entries.removeAll() }
        }
        entries[key] = (value, current.addingTimeInterval(timeToLive))
    }
}
