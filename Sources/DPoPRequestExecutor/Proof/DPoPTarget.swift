public import Foundation

/// The `htu` of a proof: the request URL without query and fragment, normalized (RFC 9449 §4.2, RFC 3986 §6).
public enum DPoPTarget {
    /// Normalizes a URL for `htu`: lowercase scheme and host, no default port, no user info, `/` for an empty path.
    ///
    /// Only `http` and `https` URLs have one: a proof binds an HTTP request (RFC 9449 §4.2), and a server compares
    /// `htu` with the HTTP target URI it received (§4.3, RFC 9110 §7.1).
    public static func htu(for url: URL) throws -> String {
        if let htu = commonFormHTU(url.absoluteString) { return htu }
        // The host as written: URLComponents would turn a punycode (`xn--`) host into percent-encoded Unicode, and
        // the server compares the htu with the URL it was sent to.
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), var host = url.host(percentEncoded: true)?.lowercased(),
            !host.isEmpty
        else { throw DPoPError.invalidTarget("the URL has no scheme or host") }
        guard defaultPort(for: scheme) != nil else {
            throw DPoPError.invalidTarget("the URL is not an http or https URL")
        }
        if host.contains(":") { host = "[" + host + "]" }  // an IPv6 literal (RFC 3986 §3.2.2)
        var result = scheme + "://" + host
        if let port = components.port, port != defaultPort(for: scheme) {
            result += ":\(port)"
        }
        let path = components.percentEncodedPath
        result += path.isEmpty ? "/" : path
        return result
    }

    /// The origin (`scheme://host[:port]`) used to key the nonce cache.
    public static func origin(of url: URL) throws -> String {
        origin(ofHTU: try htu(for: url))
    }

    /// The origin of an `htu` this type made: everything before the first `/` that follows `://`.
    static func origin(ofHTU htu: String) -> String {
        var text = htu
        return text.withUTF8 { bytes in
            var index = 0
            while index + 2 < bytes.count,
                bytes[index] != UInt8(ascii: ":") || bytes[index + 1] != UInt8(ascii: "/")
                    || bytes[index + 2] != UInt8(ascii: "/")
            {
                index += 1
            }
            guard index + 2 < bytes.count else { return htu }
            index += 3
            while index < bytes.count, bytes[index] != UInt8(ascii: "/") { index += 1 }
            guard index < bytes.count else { return htu }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<index]), as: UTF8.self)
        }
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
