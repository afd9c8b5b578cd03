#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, parsed from its literal text or taken from a DNS answer.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        /// IPv4: 4 bytes.
        case v4
        /// IPv6: 16 bytes.
        case v6
    }

    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Creates an address from 4 or 16 bytes in network order; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses a strict literal: a dotted quad (`192.0.2.1`) or IPv6 text (`2001:db8::1`, brackets allowed).
    ///
    /// Zone identifiers and the loose IPv4 forms `inet_aton` accepts (`127.1`, `0x7f.0.0.1`) are not literals
    /// here; such a host goes through the resolver, whose answer is then checked.
    public init?(_ text: String) {
        var literal = Substring(text)
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(literal), &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(literal), &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// The family, from the byte count.
    public var family: Family { bytes.count == 4 ? .v4 : .v6 }

    /// The embedded IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), or `nil`.
    public var ipv4Mapped: IPAddress? {
        guard family == .v6, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
            return nil
        }
        return IPAddress(bytes: Array(bytes[12..<16]))
    }

    /// Whether the first `length` bits equal those of `prefix` (given as bytes, zero-padded).
    func hasPrefix(_ prefix: [UInt8], length: Int) -> Bool {
        var remaining = length
        for (index, byte) in prefix.enumerated() where remaining > 0 {
            guard index < bytes.count else { return false }
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != byte & mask { return false }
            remaining -= bits
        }
        return remaining <= 0
    }

    /// The usual text form (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = self.family == .v4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard written else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
