public import Foundation

/// The `htu` of a proof: the request URL without query and fragment, normalized (RFC 9449 §4.2, RFC 3986 §6).
public enum DPoPTarget {
    /// Normalizes a URL for `htu`: lowercase scheme and host, no default port, no user info, `/` for an empty path.
    public static func htu(for url: URL) throws -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost?.lowercased(),
            !host.isEmpty
        else { throw DPoPError.invalidTarget("the URL has no scheme or host") }
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
        let htu = try htu(for: url)
        guard let schemeEnd = htu.range(of: "://"),
            let pathStart = htu[schemeEnd.upperBound...].firstIndex(of: "/")
        else { return htu }
        return String(htu[..<pathStart])
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
