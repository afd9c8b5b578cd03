import ArgumentParser

/// `127.0.0.1:8787` or `[::1]:8787`: a host and a port, as `gateway --listen` takes them.
///
/// Only the form is checked here; whether the host is a loopback address and the port a TCP port, the gateway
/// checks when it is configured.
struct HostAndPort: ArgumentValue, Hashable {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init(parsing text: String) throws(InvalidArgument) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"),
            text[text.index(after: close)...].hasPrefix(":")
        {
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else if !text.hasPrefix("["), let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        } else {
            throw Self.refusal(text)
        }
        guard !host.isEmpty, !port.isEmpty, port.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(port)
        else { throw Self.refusal(text) }
        self.init(host: String(host), port: number)
    }

    private static func refusal(_ text: String) -> InvalidArgument {
        InvalidArgument(value: text, requirement: "takes HOST:PORT, such as 127.0.0.1:8787 or [::1]:8787")
    }
}
