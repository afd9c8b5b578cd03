#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import CSodium

/// A 32-byte symmetric key held in memory that is zeroed when the last reference goes away.
///
/// It is `@unchecked Sendable` because its bytes are written only inside the initializer, before the key is
/// shared, and only read afterwards; `deinit` runs once no other reference exists.
final class SecretKey: @unchecked Sendable {
    /// The number of bytes in a store key.
    static let byteCount = Sodium.keyBytes

    private let bytes: UnsafeMutablePointer<UInt8>

    /// Creates a zeroed key and lets `fill` write its ``byteCount`` bytes; the memory is zeroed again if `fill`
    /// throws.
    init(filling fill: (UnsafeMutablePointer<UInt8>) throws -> Void) throws {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.byteCount)
        bytes.initialize(repeating: 0, count: Self.byteCount)
        do {
            try fill(bytes)
        } catch {
            Self.release(bytes)
            throw error
        }
        self.bytes = bytes
    }

    /// Creates a key from fresh random bytes.
    static func random() throws -> SecretKey {
        try Sodium.initialize()
        return try SecretKey { randombytes_buf($0, byteCount) }
    }

    deinit {
        Self.release(bytes)
    }

    /// Calls `body` with a pointer to the ``byteCount`` key bytes, which must not escape it.
    func withUnsafeBytes<Result>(_ body: (UnsafePointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(bytes)
    }

    private static func release(_ bytes: UnsafeMutablePointer<UInt8>) {
        sodium_memzero(bytes, byteCount)
        bytes.deallocate()
    }
}
#endif
