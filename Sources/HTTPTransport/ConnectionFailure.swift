/// What kind of connection failure an error from the network stack describes, read from its text: SwiftNIO and
/// AsyncHTTPClient report refusals, name lookups and TLS failures as different types across versions, but their
/// descriptions keep the system's words.
enum ConnectionFailure: Equatable {
    case refused, unknownHost, tlsHandshake, tls, reset, other

    init(_ text: String) {
        let text = text.lowercased()
        if text.contains("connection refused") || text.contains("errno: 111") || text.contains("econnrefused") {
            self = .refused
        } else if text.contains("unknownhost") || text.contains("name or service not known")
            || text.contains("nodename nor servname") || text.contains("dns")
        {
            self = .unknownHost
        } else if text.contains("handshake") || text.contains("certificate") {
            self = .tlsHandshake
        } else if text.contains("ssl") || text.contains("tls") {
            self = .tls
        } else if text.contains("reset") || text.contains("broken pipe") || text.contains("eof")
            || text.contains("remoteconnectionclosed")
        {
            self = .reset
        } else {
            self = .other
        }
    }

    /// Whether the failure came before any byte of the request was sent: nothing accepted the connection, the name
    /// did not resolve, or the TLS handshake failed, which ends before application data flows (RFC 8446 §2).
    ///
    /// Any other TLS failure, a reset or an unknown failure may come after the request was written.
    var precedesRequest: Bool {
        switch self {
        case .refused, .unknownHost, .tlsHandshake: true
        case .tls, .reset, .other: false
        }
    }
}
