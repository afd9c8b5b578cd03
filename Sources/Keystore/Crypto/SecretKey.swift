#if canImport(CSodium) && !ATOAUTH_WITHOUT_SODIUM
import CSodium

/// A 32-byte symmetric key in ``GuardedMemory``: locked in RAM where the system allows, read-only once written,
/// and zeroed when the last reference goes away.
///
/// It is `@unchecked Sendable` because its bytes are written only inside the initializer, before the key is
/// shared, and are read-only afterwards; `deinit` runs once no other reference exists.
final class SecretKey: @unchecked Sendable {
    /// The number of bytes in a store key.
    static let byteCount = Sodium.keyBytes

    private let memory: GuardedMemory

    /// Creates a zeroed key and lets `fill` write its ``byteCount`` bytes; the memory is zeroed and freed if `fill`
    /// throws.
    init(filling fill: (UnsafeMutablePointer<UInt8>) throws -> Void) throws {
        let memory = try GuardedMemory(count: Self.byteCount)
        try memory.withUnsafeMutablePointer(fill)
        memory.makeReadOnly()
        self.memory = memory
    }

    /// Creates a key from fresh random bytes.
    static func random() throws -> SecretKey {
        try Sodium.initialize()
        return try SecretKey { randombytes_buf($0, byteCount) }
    }

    /// Calls `body` with a pointer to the ``byteCount`` key bytes, which must not escape it.
    func withUnsafeBytes<Result>(_ body: (UnsafePointer<UInt8>) throws -> Result) rethrows -> Result {
        try memory.withUnsafePointer(body)
    }
}
#endif
