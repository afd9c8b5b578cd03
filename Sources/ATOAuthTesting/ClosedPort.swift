#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP port on 127.0.0.1 that refuses connections for as long as this object holds it.
///
/// The port is bound but never listened on: the kernel answers a connection attempt with a reset, and no other
/// socket (another test's server) can take the port meanwhile, as it could after a server is shut down.
package final class ClosedPort: Sendable {
    private struct BindFailed: Error, CustomStringConvertible {
        var step: String
        var description: String { "could not reserve a closed port: \(step) failed" }
    }

    /// The reserved port.
    package let port: Int
    private let descriptor: Int32

    /// Binds a new socket to a free port of 127.0.0.1 without listening.
    package init() throws {
        let descriptor = makeStreamSocket()
        guard descriptor >= 0 else { throw BindFailed(step: "socket") }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw BindFailed(step: "bind")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}

/// A new IPv4 TCP socket, or a negative number when none can be made.
func makeStreamSocket() -> Int32 {
    #if canImport(Glibc)
    socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    socket(AF_INET, SOCK_STREAM, 0)
    #endif
}

/// `127.0.0.1:port` as a socket address.
func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}
