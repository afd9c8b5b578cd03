import Foundation
import HTTPTransport

extension DocumentCheck {
    /// The pages a server shows beside the client's name: `client_uri`, `logo_uri`, `tos_uri` and `policy_uri`, when
    /// given, are https on the `client_id`'s origin; `client_uri` is also a parent of the `client_id` URL, as the
    /// reference server requires.
    mutating func checkDisplayURIs() {
        for name in ["client_uri", "logo_uri", "tos_uri", "policy_uri"] {
            let rule = name == "client_uri" ? CheckRule.clientURI : CheckRule.displayURIs
            guard let text = string(name, rule: CheckRule.displayURIs) else { continue }
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                let host = components.host, !host.isEmpty, URL(string: text)?.hasUsablePort == true
            else {
                report(name, "\(Self.quoted(text)) is not a URL with a host", CheckRule.displayURIs)
                continue
            }
            let development = isDevelopmentClient && scheme == "http" && ClientMetadata.isLoopbackIP(host)
            guard scheme == "https" || development else {
                report(name, "it must be an https URL", CheckRule.displayURIs)
                continue
            }
            guard let clientID, let clientOrigin = Self.origin(clientID), let origin = Self.origin(components) else {
                continue
            }
            if origin != clientOrigin {
                report(
                    name,
                    "it is on \(Self.quoted(origin)), not on the client_id's origin \(Self.quoted(clientOrigin))",
                    rule
                )
            } else if name == "client_uri",
                !Self.isParent(components.percentEncodedPath, of: clientID.percentEncodedPath)
            {
                report(name, "it must be the client_id URL or a parent of it (a path above it)", rule)
            }
        }
    }

    /// A URL's origin (RFC 6454 §4): scheme, host, and the port when it is not the scheme's default.
    static func origin(_ url: URLComponents) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.percentEncodedHost?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        guard let port = url.port, port != defaultPort else { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(port)"
    }

    /// Whether `parent` is `child` or a path above it, an empty path being `/`.
    static func isParent(_ parent: String, of child: String) -> Bool {
        let parent = parent.isEmpty ? "/" : parent
        let child = child.isEmpty ? "/" : child
        return parent == child || child.hasPrefix(parent.hasSuffix("/") ? parent : parent + "/")
    }
}
