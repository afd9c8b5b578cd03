import Foundation
import WireFormat

/// What the sandbox's pages show of a client, from its client metadata document: its `client_name`, `logo_uri` and
/// `client_uri` (RFC 7591 §2), each kept only when it passes the checks below.
///
/// A document is written by whoever runs the client, so every value is hostile until checked: a name is one line of
/// at most ``maximumNameLength`` characters; a logo or home address is an `https` URL with a host (or, the sandbox
/// being for development, an `http` one to 127.0.0.1 or [::1]) of at most ``maximumURILength`` bytes, without user
/// info or characters a URL cannot hold. A value that fails is left out, never refused: the document still signs in.
/// The pages escape every value they show. A loopback development client has no document, so nothing.
struct ClientPresentation: Sendable, Hashable {
    /// The longest `client_name` shown, in characters; a longer one is cut and ends in "…".
    static let maximumNameLength = 100
    /// The longest `logo_uri` or `client_uri` taken, in bytes.
    static let maximumURILength = 2048

    /// The `client_name`, checked and cut to ``maximumNameLength``.
    var name: String?
    /// The `logo_uri`, checked.
    var logoURI: String?
    /// The `client_uri`, the application's home page, checked.
    var homeURI: String?

    /// Nothing to show: the loopback development client.
    init() {}

    /// The values of a client metadata document that pass the checks.
    init(metadata: [String: Any]) {
        name = (metadata["client_name"] as? String).flatMap(Self.checkedName)
        logoURI = (metadata["logo_uri"] as? String).flatMap(Self.checkedURI)
        homeURI = (metadata["client_uri"] as? String).flatMap(Self.checkedURI)
    }

    /// The name on one line without control characters, cut to ``maximumNameLength``; `nil` when nothing is left.
    static func checkedName(_ name: String) -> String? {
        let visible = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
            )
        )
        let line = visible.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !line.isEmpty else { return nil }
        guard line.count > maximumNameLength else { return line }
        return String(line.prefix(maximumNameLength - 1)) + "…"
    }

    /// The origin of ``logoURI`` (`scheme://host[:port]`), which the page's `Content-Security-Policy` lets images
    /// load from; `nil` without a logo.
    var logoOrigin: String? {
        guard let logoURI, let components = URLComponents(string: logoURI), let scheme = components.scheme,
            let host = components.percentEncodedHost
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// The address when it is one the pages may link to or load: `https` to a DNS name, or `http` to 127.0.0.1 or
    /// [::1]; printable ASCII that RFC 3986 §2 allows in a URL, no user info, at most ``maximumURILength`` bytes.
    static func checkedURI(_ address: String) -> String? {
        guard address.utf8.count <= maximumURILength,
            address.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !notInURLs.contains($0) }),
            let components = URLComponents(string: address),
            components.user == nil, components.password == nil,
            let host = components.percentEncodedHost
        else { return nil }
        switch components.scheme {
        case "https":
            guard !host.isEmpty, host.utf8.allSatisfy(HostNameByte.isAllowed) else { return nil }
            return address
        case "http":
            return ClientResolver.isLoopbackIP(address) ? address : nil
        default:
            return nil
        }
    }

    /// The printable ASCII characters RFC 3986 never allows in a URL unencoded.
    private static let notInURLs = Set("\"<>\\^`{|}".utf8)
}
