/// The `Host` values a request may carry: the address the gateway listens on, so that a page whose DNS name was
/// rebound to 127.0.0.1 (its `Host` still its own name) is refused (RFC 9110 §7.2).
struct HostCheck: Sendable {
    /// The accepted values, lowercased.
    private let accepted: Set<String>
    /// Whether a request without `Host` is accepted: only on a Unix socket, where no browser connects.
    private let acceptsMissing: Bool

    /// The values for the address the gateway is bound to: on TCP, the address and `localhost`, each with the port
    /// (and without it on port 80, the default the client leaves out, RFC 9110 §7.2); on a Unix socket, `localhost`.
    init(_ bound: GatewayConfiguration.Listen) {
        switch bound {
        case .tcp(let host, let port):
            let address = LoopbackHost.canonical(host) ?? host
            let written = address.contains(":") ? "[\(address)]" : address
            let names = [written, "localhost"]
            var accepted = Set(names.map { "\($0):\(port)" })
            if port == 80 { accepted.formUnion(names) }
            self.accepted = accepted
            acceptsMissing = false
        case .unixSocket:
            accepted = ["localhost"]
            acceptsMissing = true
        }
    }

    /// Whether the request's `Host` (its authority) is one of the accepted values.
    func allows(_ authority: String?) -> Bool {
        guard let authority else { return acceptsMissing }
        return accepted.contains(authority.lowercased())
    }
}
