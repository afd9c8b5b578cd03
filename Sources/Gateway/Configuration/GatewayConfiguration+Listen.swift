extension GatewayConfiguration {
    /// Where a gateway listens, or, as ``GatewayServer/boundAddress()`` gives it, where it does.
    ///
    /// Only this machine may reach it: a TCP port on a loopback address (`127.0.0.0/8`, `::1`, or `localhost`,
    /// which is bound as `127.0.0.1`), or a Unix domain socket, which the gateway makes 0600.
    public enum Listen: Sendable, Hashable, CustomStringConvertible {
        /// A TCP port on a loopback address; port 0 lets the system choose a free one.
        case tcp(host: String, port: Int)
        /// A Unix domain socket at this path.
        case unixSocket(path: String)

        /// The longest socket path, in bytes: `sun_path` holds 104 bytes on Apple platforms (108 on Linux),
        /// its terminating NUL included.
        public static let maximumSocketPathBytes = 103

        /// `http://127.0.0.1:8787`, `http://[::1]:8787`, or `unix:/run/atoauth.sock`.
        public var description: String {
            switch self {
            case .tcp(let host, let port):
                let address = LoopbackHost.canonical(host) ?? host
                return address.contains(":") ? "http://[\(address)]:\(port)" : "http://\(address):\(port)"
            case .unixSocket(let path):
                return "unix:\(path)"
            }
        }

        /// Checks that the address is loopback and the port a port, or the socket path usable.
        ///
        /// - Throws: ``GatewayError`` (usage) saying what is wrong.
        public func check() throws {
            switch self {
            case .tcp(let host, let port):
                guard LoopbackHost.canonical(host) != nil else { throw GatewayError.notLoopback(host) }
                guard (0...65_535).contains(port) else { throw GatewayError.invalidPort(port) }
            case .unixSocket(let path):
                guard !path.isEmpty, !path.utf8.contains(0) else {
                    throw GatewayError.unusableSocketPath(path, "it is empty or holds a NUL byte")
                }
                guard path.utf8.count <= Self.maximumSocketPathBytes else {
                    throw GatewayError.unusableSocketPath(
                        path,
                        "it is \(path.utf8.count) bytes long, and a Unix socket path may have at most "
                            + "\(Self.maximumSocketPathBytes)"
                    )
                }
            }
        }
    }
}
