#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import CSodium

/// Bytes in libsodium's guarded heap (`sodium_malloc`): their own pages between inaccessible guard pages, locked
/// in RAM where the system allows, left out of core dumps, and zeroed and unmapped by `sodium_free` when the last
/// reference goes away (libsodium documentation, "Securing memory allocations").
///
/// Locking can fail: an unprivileged process may lock only `RLIMIT_MEMLOCK` bytes (often 64 KiB or 8 MiB).
/// libsodium then keeps the pages unlocked and everything else works; a store never fails because of it, since
/// refusing to open would lose the user's sessions over a limit they may not control. Each buffer costs a few
/// pages, so it is for keys and short-lived secrets, not bulk data.
///
/// It is `@unchecked Sendable` because the pointer never changes and the memory is freed only in `deinit`; callers
/// that share a buffer (``SecretKey``) make it read-only before sharing it.
final class GuardedMemory: @unchecked Sendable {
    /// The number of usable bytes.
    let count: Int

    private let start: UnsafeMutablePointer<UInt8>

    /// Allocates `count` bytes (at least one), filled with zeros; throws ``KeystoreError/cryptoFailure(_:)`` when
    /// the system has no memory left.
    init(count: Int) throws {
        try Sodium.initialize()
        let capacity = max(count, 1)
        guard let raw = sodium_malloc(capacity) else {
            throw KeystoreError.cryptoFailure("could not allocate memory for a secret")
        }
        sodium_memzero(raw, capacity)
        self.start = raw.bindMemory(to: UInt8.self, capacity: capacity)
        self.count = count
    }

    /// Allocates a buffer holding a copy of `source`.
    convenience init(copying source: some Collection<UInt8>) throws {
        try self.init(count: source.count)
        _ = UnsafeMutableBufferPointer(start: start, count: count).initialize(fromContentsOf: source)
    }

    deinit {
        sodium_free(start)
    }

    /// Calls `body` with a pointer to the ``count`` bytes for writing; it must not escape `body`.
    func withUnsafeMutablePointer<Result>(_ body: (UnsafeMutablePointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(start)
    }

    /// Calls `body` with a pointer to the ``count`` bytes for reading; it must not escape `body`.
    func withUnsafePointer<Result>(_ body: (UnsafePointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(start)
    }

    /// Makes the bytes read-only: from now on a write through any pointer to them crashes instead of changing them.
    func makeReadOnly() {
        _ = sodium_mprotect_readonly(start)
    }
}
#endif
