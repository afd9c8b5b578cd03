import Foundation

/// An `htu` or a request URL reduced to what RFC 9449 §4.3 compares: scheme, host, port and path, without query
/// and fragment, after the case and percent-encoding normalization of RFC 3986 §6.2.2 and the scheme-based
/// normalization of §6.2.3 (a default port, an empty path).
struct RequestTarget: Hashable {
    private let scheme: String
    private let host: String
    private let port: Int?
    private let path: String

    /// Reads `text`; `nil` when it is no absolute http(s) URL.
    init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        let defaultPort = scheme == "https" ? 443 : 80
        port = components.port == defaultPort ? nil : components.port
        let path = Self.normalizedPercentEncoding(components.percentEncodedPath)
        self.path = path.isEmpty ? "/" : path
    }

    /// Whether the URL in `text` names a user or password, which an `htu` must not.
    static func hasCredentials(_ text: String) -> Bool {
        guard let components = URLComponents(string: text) else { return false }
        return components.percentEncodedUser != nil || components.percentEncodedPassword != nil
    }

    /// Upper-case hex digits in every escape (RFC 3986 §6.2.2.1), and unreserved characters unescaped (§6.2.2.2).
    private static func normalizedPercentEncoding(_ path: String) -> String {
        var result = ""
        var index = path.startIndex
        while index < path.endIndex {
            let character = path[index]
            let hexEnd = path.index(index, offsetBy: 3, limitedBy: path.endIndex)
            guard character == "%", let hexEnd, let byte = UInt8(path[path.index(after: index)..<hexEnd], radix: 16)
            else {
                result.append(character)
                index = path.index(after: index)
                continue
            }
            let scalar = Unicode.Scalar(byte)
            if isUnreserved(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
            index = hexEnd
        }
        return result
    }

    private static func isUnreserved(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
