import Foundation
import HTTPTransport

extension DocumentCheck {
    /// At least one redirect URI, each one the application type allows: for a native app a loopback IP
    /// (`http://127.0.0.1`, `http://[::1]`), the reversed `client_id` host as a private-use scheme, or https on the
    /// `client_id`'s host; for a web client https on that host (an http loopback one for a development client).
    mutating func checkRedirectURIs(kind: Kind) {
        let rule = CheckRule.redirectURIs
        guard members["redirect_uris"] != nil else {
            report("redirect_uris", "it is missing; it needs at least one redirect URI", rule)
            return
        }
        guard let uris = strings("redirect_uris", rule: rule) else { return }
        if uris.isEmpty { report("redirect_uris", "it is empty; it needs at least one redirect URI", rule) }
        for uri in uris {
            checkRedirect(uri, kind: kind)
        }
    }

    private mutating func checkRedirect(_ uri: String, kind: Kind) {
        let shown = Self.quoted(uri)
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            !scheme.isEmpty
        else {
            report("redirect_uris", "\(shown) is not an absolute URI", CheckRule.redirectURIs)
            return
        }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            report("redirect_uris", "\(shown) has user info (user@)", CheckRule.redirectUserInfo)
        }
        if components.percentEncodedFragment != nil {
            report("redirect_uris", "\(shown) has a fragment; a redirect URI has none", CheckRule.redirectURIs)
        }
        switch scheme {
        case "http", "https":
            let host = components.host ?? ""
            guard !host.isEmpty else {
                report("redirect_uris", "\(shown) has no host", CheckRule.redirectURIs)
                return
            }
            if URL(string: uri)?.hasUsablePort != true {
                report("redirect_uris", "\(shown): the port is outside 1–65535", CheckRule.redirectURIs)
            }
            if host.lowercased() == "localhost" {
                report(
                    "redirect_uris",
                    "\(shown): use the loopback IP 127.0.0.1 or [::1], not localhost",
                    CheckRule.loopbackRedirect
                )
            } else if scheme == "http" {
                checkHTTPRedirect(shown, host: host, kind: kind)
            } else {
                checkHTTPSRedirect(shown, host: host)
            }
        default:
            checkPrivateUseRedirect(uri, scheme: scheme, kind: kind)
        }
    }

    /// http: a loopback IP, for a native app (or a development web client).
    private mutating func checkHTTPRedirect(_ shown: String, host: String, kind: Kind) {
        guard ClientMetadata.isLoopbackIP(host) else {
            report(
                "redirect_uris",
                "\(shown): http is for a native app's loopback IP redirect (127.0.0.1 or [::1]) only; use https",
                CheckRule.loopbackRedirect
            )
            return
        }
        if kind == .web, !isDevelopmentClient {
            report(
                "redirect_uris",
                "\(shown): a loopback redirect is for a native app; a web client redirects to https",
                CheckRule.webRedirect
            )
        }
    }

    /// https: on the `client_id`'s host, never a loopback IP.
    private mutating func checkHTTPSRedirect(_ shown: String, host: String) {
        if ClientMetadata.isLoopbackIP(host) {
            report("redirect_uris", "\(shown): a loopback IP redirect uses http", CheckRule.loopbackRedirect)
        } else if let clientHost = clientID?.host, host.lowercased() != clientHost.lowercased() {
            report(
                "redirect_uris",
                "\(shown): an https redirect URI is on the client_id's host, \(Self.quoted(clientHost))",
                CheckRule.redirectHost
            )
        }
    }

    /// A private-use scheme: a native app's, the reversed `client_id` host followed by `:/` (RFC 8252 §7.1).
    private mutating func checkPrivateUseRedirect(_ uri: String, scheme: String, kind: Kind) {
        let shown = Self.quoted(uri)
        if kind == .web {
            report(
                "redirect_uris",
                "\(shown): a private-use scheme is for a native app; a web client redirects to https",
                CheckRule.webRedirect
            )
            return
        }
        if let clientHost = clientID?.host {
            let reversed = clientHost.lowercased().split(separator: ".").reversed().joined(separator: ".")
            if scheme != reversed {
                report(
                    "redirect_uris",
                    "\(shown): the scheme must be the client_id's host reversed, \(Self.quoted(reversed))",
                    CheckRule.privateUseRedirect
                )
            }
        }
        let rest = uri.dropFirst(scheme.count + 1)
        if !rest.hasPrefix("/") || rest.hasPrefix("//") {
            report(
                "redirect_uris",
                "\(shown): a private-use scheme is followed by “:/” and a path, with one slash",
                CheckRule.privateUseRedirect
            )
        }
    }
}
