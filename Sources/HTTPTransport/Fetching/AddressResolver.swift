import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves a host name to its addresses, so a fetch can check them before connecting; the seam tests replace.
public protocol AddressResolver: Sendable {
    /// Returns every address `host` resolves to; throws ``FetchError/networkFailure(_:)`` when it cannot.
    func addresses(for host: String) async throws -> [IPAddress]
}

/// Resolves names with the system's `getaddrinfo`, off the cooperative thread pool.
public struct SystemAddressResolver: AddressResolver {
    /// Creates the resolver.
    public init() {}

    /// Looks `host` up with `getaddrinfo` (IPv4 and IPv6) on a Dispatch queue, since the call blocks.
    public func addresses(for host: String) async throws -> [IPAddress] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.lookUp(host) })
            }
        }
    }

    static func lookUp(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            let message = status == 0 ? "no answer" : String(cString: gai_strerror(status))
            throw FetchError.cannotResolve(host, message)
        }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = Self.address(of: entry.pointee), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }

    private static func address(of entry: addrinfo) -> IPAddress? {
        guard let socketAddress = entry.ai_addr else { return nil }
        switch entry.ai_family {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin_addr
                return IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) })
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin6_addr
                return IPAddress(bytes: withUnsafeBytes(of: &raw) { Array($0) })
            }
        default:
            return nil
        }
    }
}
