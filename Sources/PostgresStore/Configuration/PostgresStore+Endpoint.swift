#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgresStore.Configuration.Endpoint {
    /// Whether the server is on this machine: a Unix socket, `localhost`, or a loopback address (127.0.0.0/8,
    /// `::1`), where nobody else is on the path.
    public var isThisMachine: Bool {
        switch self {
        case .unixSocket:
            return true
        case .tcp(let host, _):
            let name = host.lowercased()
            if name == "localhost" || name.hasSuffix(".localhost") { return true }
            var v4 = in_addr()
            if inet_pton(AF_INET, host, &v4) == 1 {
                return UInt32(bigEndian: v4.s_addr) >> 24 == 127
            }
            var v6 = in6_addr()
            if inet_pton(AF_INET6, host, &v6) == 1 {
                let bytes = withUnsafeBytes(of: v6) { Array($0) }
                return bytes == Array(repeating: 0, count: 15) + [1]
            }
            return false
        }
    }
}
