package import Foundation

extension URL {
    /// Whether the URL's port, if it names one, is a TCP port: `1...65535`.
    ///
    /// RFC 3986 §3.2.3 allows any digits after the colon, but a TCP port has 16 bits (RFC 9293 §3.1). The HTTP stack
    /// traps on a port that does not fit, and Foundation drops one too large for an `Int` (`url.port` is `nil`),
    /// which would silently send the request to the scheme's default port; both are refused here. An empty port
    /// (`https://host:/`) is refused too.
    package var hasUsablePort: Bool {
        if let port { return (1...65_535).contains(port) }
        let text = absoluteString
        guard let start = text.range(of: "://")?.upperBound else { return true }
        let authority = text[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
            hostAndPort = hostAndPort[hostAndPort.index(after: close)...]
        }
        return !hostAndPort.contains(":")
    }
}
