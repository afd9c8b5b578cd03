/// What a URL's host is, decided from its text alone before any DNS look-up (atproto.com/specs/oauth, Security Concerns).
public enum HostKind: Sendable, Hashable {
    /// An IP address literal.
    case address(IPAddress)
    /// `localhost`, which only the development option allows, and then only if it resolves to loopback.
    case localhost
    /// A name that never denotes a public server: a single label, or one under `.localhost`, `.local`,
    /// `.internal`, `.home.arpa`, `.invalid`, `.onion` or `.alt` (RFC 6761, RFC 6762, RFC 8375, RFC 9476).
    case specialUseName
    /// An ordinary DNS name, which must resolve to public addresses only.
    case domainName
    /// Not a usable host: empty, or with characters other than ASCII letters, digits, `-`, `_` and `.`.
    case invalid

    /// The special-use suffixes refused as hosts.
    static let specialUseSuffixes = [
        ".localhost", ".local", ".internal", ".home.arpa", ".invalid", ".onion", ".alt",
    ]

    /// Classifies a host as it appears in a URL (brackets around IPv6 allowed, one trailing dot ignored).
    public static func classify(_ host: String) -> HostKind {
        if let address = IPAddress(host) { return .address(address) }
        var name = asciiLowercased(host)
        if name.hasSuffix(".") { name.removeLast() }
        let allowed = Array("-_.0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        guard !name.isEmpty, name.utf8.allSatisfy({ allowed.contains($0) }),
            !name.hasPrefix("."), !name.contains("..")
        else {
            return .invalid
        }
        if name == "localhost" { return .localhost }
        if !name.contains(".") || specialUseSuffixes.contains(where: { name.hasSuffix($0) }) {
            return .specialUseName
        }
        return .domainName
    }

    /// The text with ASCII letters lowercased and everything else unchanged (host names compare case-insensitively,
    /// RFC 4343 §3).
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether this is a loopback host: `localhost`, an address in 127.0.0.0/8, or ::1 (also IPv4-mapped).
    public var isLoopback: Bool {
        switch self {
        case .localhost: true
        case .address(let address): address.category == .loopback
        case .specialUseName, .domainName, .invalid: false
        }
    }
}
