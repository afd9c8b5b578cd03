/// What kind of network an address belongs to; only ``global`` addresses are fetched from
/// (atproto.com/specs/oauth, Security Concerns, RFC 6890 special-purpose registries).
public enum AddressCategory: Sendable, Hashable, CustomStringConvertible {
    /// A publicly routable unicast address.
    case global
    /// Loopback: 127.0.0.0/8 and ::1; allowed only by the development option.
    case loopback
    /// A private network: 10/8, 172.16/12, 192.168/16 (RFC 1918).
    case privateNetwork
    /// Carrier-grade NAT shared address space: 100.64/10 (RFC 6598).
    case sharedAddressSpace
    /// Link-local: 169.254/16 and fe80::/10.
    case linkLocal
    /// IPv6 unique local: fc00::/7 (RFC 4193).
    case uniqueLocal
    /// IPv6 site-local, deprecated: fec0::/10 (RFC 3879).
    case siteLocal
    /// Multicast: 224/4 and ff00::/8.
    case multicast
    /// Unspecified or "this network": 0/8 and ::.
    case unspecified
    /// Benchmarking: 198.18/15 and 2001:2::/48 (RFC 2544, RFC 5180).
    case benchmarking
    /// Documentation: 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    case documentation
    /// Any other special-purpose or unallocated range, such as 240/4, 192.0.0/24, 2001::/23 or ::/96.
    case reserved

    /// Whether addresses of this category may be fetched from in production.
    public var isGlobal: Bool { self == .global }

    /// The category in words, for error messages.
    public var description: String {
        switch self {
        case .global: "a public address"
        case .loopback: "a loopback address"
        case .privateNetwork: "a private network address"
        case .sharedAddressSpace: "a carrier-grade NAT address"
        case .linkLocal: "a link-local address"
        case .uniqueLocal: "a unique local address"
        case .siteLocal: "a site-local address"
        case .multicast: "a multicast address"
        case .unspecified: "an unspecified address"
        case .benchmarking: "a benchmarking address"
        case .documentation: "a documentation address"
        case .reserved: "a reserved address"
        }
    }
}

extension IPAddress {
    /// The category of this address: a pure function of its bytes (RFC 6890, RFC 4291 §2.5, RFC 6052 §2.1).
    public var category: AddressCategory {
        family == .v4 ? Self.categoryOfIPv4(self) : Self.categoryOfIPv6(self)
    }

    private static let ipv4Ranges: [(prefix: [UInt8], length: Int, category: AddressCategory)] = [
        ([0], 8, .unspecified),
        ([10], 8, .privateNetwork),
        ([100, 64], 10, .sharedAddressSpace),
        ([127], 8, .loopback),
        ([169, 254], 16, .linkLocal),
        ([172, 16], 12, .privateNetwork),
        ([192, 0, 0], 24, .reserved),
        ([192, 0, 2], 24, .documentation),
        ([192, 88, 99], 24, .reserved),
        ([192, 168], 16, .privateNetwork),
        ([198, 18], 15, .benchmarking),
        ([198, 51, 100], 24, .documentation),
        ([203, 0, 113], 24, .documentation),
        ([224], 4, .multicast),
        ([240], 4, .reserved),
    ]

    private static let ipv6Ranges: [(prefix: [UInt8], length: Int, category: AddressCategory)] = [
        ([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01], 48, .reserved),
        ([0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, .reserved),
        ([0x20, 0x01, 0x0D, 0xB8], 32, .documentation),
        ([0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48, .benchmarking),
        ([0x20, 0x01, 0x00], 23, .reserved),
        ([0x3F, 0xFF, 0x00], 20, .documentation),
        ([0xFC], 7, .uniqueLocal),
        ([0xFE, 0x80], 10, .linkLocal),
        ([0xFE, 0xC0], 10, .siteLocal),
        ([0xFF], 8, .multicast),
    ]

    private static func categoryOfIPv4(_ address: IPAddress) -> AddressCategory {
        ipv4Ranges.first { address.hasPrefix($0.prefix, length: $0.length) }?.category ?? .global
    }

    private static func categoryOfIPv6(_ address: IPAddress) -> AddressCategory {
        let bytes = address.bytes
        if bytes.allSatisfy({ $0 == 0 }) { return .unspecified }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return .loopback }
        if let mapped = address.ipv4Mapped { return mapped.category }
        // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291 §2.5.5.1): never fetched from.
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return .reserved }
        // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052) and 6to4 2002::/16 (RFC 3056) embed an IPv4 address.
        if address.hasPrefix([0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0], length: 96),
            let embedded = IPAddress(bytes: Array(bytes[12..<16]))
        {
            return embedded.category
        }
        if address.hasPrefix([0x20, 0x02], length: 16), let embedded = IPAddress(bytes: Array(bytes[2..<6])) {
            return embedded.category
        }
        if let range = ipv6Ranges.first(where: { address.hasPrefix($0.prefix, length: $0.length) }) {
            return range.category
        }
        // Only 2000::/3 is allocated as global unicast (RFC 4291 §2.4).
        return address.hasPrefix([0x20], length: 3) ? .global : .reserved
    }
}
