/// What kind of connection failure an error from the network stack describes, read from its text: SwiftNIO and
/// AsyncHTTPClient report refusals, name lookups and TLS failures as different types across versions, but their
/// descriptions keep the system's words.
enum ConnectionFailure: Equatable {
    case refused, unknownHost, tls, reset, other

    init(_ text: String) {
        let text = text.lowercased()
        if text.contains("connection refused") || text.contains("errno: 111") || text.contains("econnrefused") {
            self = .refused
        } else if text.contains("unknownhost") || text.contains("name or service not known")
            || text.contains("nodename nor servname") || text.contains("dns")
        {
            self = .unknownHost
        } else if text.contains("ssl") || text.contains("tls") || text.contains("certificate")
            || text.contains("handshake")
        {
            self = .tls
        } else if text.contains("reset") || text.contains("broken pipe") || text.contains("eof") {
            self = .reset
        } else {
            self = .other
        }
    }
}
