#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loopback hosts a gateway may listen on: `localhost`, an IPv4 address in `127.0.0.0/8` (RFC 1122 §3.2.1.3),
/// or the IPv6 loopback `::1` (RFC 4291 §2.5.3), with or without brackets.
enum LoopbackHost {
    /// The address to bind for `host`, written canonically (`127.0.0.1` for `localhost`, `::1` for every spelling of
    /// the IPv6 loopback); `nil` when `host` is not loopback.
    static func canonical(_ host: String) -> String? {
        if host.lowercased() == "localhost" { return "127.0.0.1" }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            let bytes = withUnsafeBytes(of: &v4) { Array($0) }
            guard bytes.first == 127 else { return nil }
            return bytes.map { "\($0)" }.joined(separator: ".")
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            guard bytes.dropLast().allSatisfy({ $0 == 0 }), bytes.last == 1 else { return nil }
            return "::1"
        }
        return nil
    }
}
