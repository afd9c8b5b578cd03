/// A source of random bytes; injected so tests can fix `jti`, PKCE verifiers and `state`.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    func bytes(count: Int) -> [UInt8]
}

/// The operating system's CSPRNG, through `SystemRandomNumberGenerator`.
public struct SystemRandomSource: RandomSource {
    /// Creates the system source.
    public init() {}

    /// Returns `count` bytes from the system CSPRNG, eight at a time.
    public func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            var filled = 0
            while filled < count {
                let word = generator.next() as UInt64
                let take = min(8, count - filled)
                withUnsafeBytes(of: word) { bytes in
                    for offset in 0..<take { buffer[filled + offset] = bytes[offset] }
                }
                filled += take
            }
            initializedCount = count
        }
    }
}

extension RandomSource where Self == SystemRandomSource {
    /// The operating system's CSPRNG.
    public static var system: SystemRandomSource { SystemRandomSource() }
}
