package import Foundation

/// Checks and normalizes origin URLs — scheme, host and port only (RFC 6454) — as PDS and issuer URLs must be
/// (atproto.com/specs/did).
package enum OriginURL {
    /// Why a URL is not an acceptable origin.
    package struct Problem: Error, Sendable {
        /// The failed check, in words.
        package let reason: String
    }

    /// Returns `scheme://host[:port]` with a lowercase scheme and host and no default port.
    ///
    /// The scheme must be `https`, or `http` for a loopback host when `allowHTTPLoopback` is set; the URL must have
    /// a host, a port (if any) in `1...65535`, no user, query or fragment, and a path that is empty or `/`.
    package static func normalize(_ url: URL, allowHTTPLoopback: Bool) throws(Problem) -> URL {
        guard url.user == nil, url.password == nil else { throw Problem(reason: "the URL carries a user name") }
        guard let scheme = url.scheme?.lowercased() else { throw Problem(reason: "\(url) has no scheme") }
        let host = DestinationPolicy.host(of: url)
        let kind = HostKind.classify(host)
        guard scheme == "https" || (scheme == "http" && allowHTTPLoopback && kind.isLoopback) else {
            throw Problem(reason: "\(url) is not an https URL")
        }
        guard kind != .invalid else { throw Problem(reason: "\(url) has no usable host") }
        guard url.hasUsablePort else { throw Problem(reason: "\(url) names a port outside 1–65535") }
        guard url.query == nil, url.fragment == nil else {
            throw Problem(reason: "\(url) has a query or a fragment")
        }
        let path = url.path(percentEncoded: true)
        guard path.isEmpty || path == "/" else { throw Problem(reason: "\(url) has a path") }
        var text = "\(scheme)://"
        if case .address(let address) = kind, address.family == .v6 {
            text += "[\(address)]"
        } else {
            text += HostKind.asciiLowercased(host)
        }
        if let port = url.port, port != (scheme == "https" ? 443 : 80) {
            text += ":\(port)"
        }
        guard let origin = URL(string: text) else { throw Problem(reason: "\(url) is not a valid URL") }
        return origin
    }

    /// Whether `text` is already a normalized origin: it parses and normalizes to itself.
    package static func isNormalized(_ text: String, allowHTTPLoopback: Bool) -> Bool {
        guard let url = URL(string: text),
            let origin = try? normalize(url, allowHTTPLoopback: allowHTTPLoopback)
        else {
            return false
        }
        return origin.absoluteString == text
    }
}

extension URL {
    /// The URL for a string the package itself spells out, such as a default service URL.
    ///
    /// Only for literals written in this module, never for input: a typo there is a programming error.
    package init(staticString: StaticString) {
        guard let url = URL(string: "\(staticString)") else {
            preconditionFailure("invalid URL literal \(staticString)")
        }
        self = url
    }

    /// This URL with `path` (which starts with `/`) appended to its path, keeping no query or fragment.
    package func appendingWellKnownPath(_ path: String) -> URL? {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return nil }
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        components.percentEncodedPath = base + path
        components.query = nil
        components.fragment = nil
        return components.url
    }
}
