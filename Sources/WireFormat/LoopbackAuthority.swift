/// The `Host` values of a server on the loopback interface: `127.0.0.1`, `localhost` or `[::1]`, with its port, which
/// a client leaves out when it is 80, the default (RFC 9110 §7.2, §4.2.1).
///
/// A page whose DNS name was rebound to 127.0.0.1 reaches such a server with its own name in `Host`, so a server on
/// this machine that answers only these values cannot be read or driven through DNS rebinding.
package enum LoopbackAuthority {
    /// Whether `authority`, the request's `Host`, names a loopback server on `port`; case does not matter.
    package static func names(_ authority: String?, port: Int) -> Bool {
        guard let lowered = authority?.lowercased() else { return false }
        return ["127.0.0.1", "localhost", "[::1]"].contains { name in
            lowered == "\(name):\(port)" || (port == 80 && lowered == name)
        }
    }
}
