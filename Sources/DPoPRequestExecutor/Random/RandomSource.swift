/// A source of random bytes; injected so tests can fix `jti`, PKCE verifiers and `state`.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    func bytes(count: Int) -> [UInt8]
}

/// The operating system's CSPRNG, through `SystemRandomNumberGenerator`.
public struct SystemRandomSource: RandomSource {
    /// Creates the system source.
    public init() {}

    /// Returns `count` bytes from the system CSPRNG.
    public func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var output = [UInt8]()
        output.reserveCapacity(count + 8)
        while output.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { output.append(contentsOf: $0) }
        }
        return Array(output.prefix(count))
    }
}

extension RandomSource where Self == SystemRandomSource {
    /// The operating system's CSPRNG.
    public static var system: SystemRandomSource { SystemRandomSource() }
}
