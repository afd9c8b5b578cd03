public import Foundation

/// Decides which URLs identity and metadata fetches may contact (atproto.com/specs/oauth, Security Concerns): pure checks, no I/O.
///
/// Production: `https` only, to hosts whose every address is ``AddressCategory/global``. With
/// ``allowHTTPLoopback`` (development only), loopback hosts — `localhost`, 127.0.0.0/8 and ::1 — are also allowed,
/// over `http` or `https`; `http` is never allowed for any other host, and private, link-local or other
/// non-public addresses never are. A DNS name that resolves to loopback is refused even then: only the literal
/// loopback hosts count.
public struct DestinationPolicy: Sendable, Hashable {
    /// Whether `http://` and loopback addresses are allowed for loopback hosts (development only).
    public var allowHTTPLoopback: Bool

    /// Creates a policy; loopback is refused unless `allowHTTPLoopback` is set.
    public init(allowHTTPLoopback: Bool = false) {
        self.allowHTTPLoopback = allowHTTPLoopback
    }

    /// Checks a URL's scheme and host before any look-up, and returns the host's kind.
    ///
    /// Throws ``FetchError/unsafeDestination(_:)`` when the scheme, the host text, the port or an address literal
    /// is refused. A ``HostKind/domainName`` or ``HostKind/localhost`` still has to be resolved and its addresses
    /// passed to ``checkResolved(_:addresses:)``.
    public func checkBeforeResolving(_ url: URL) throws -> HostKind {
        guard url.user == nil, url.password == nil else {
            throw FetchError.unsafeDestination("the URL carries a user name or password")
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw FetchError.unsafeDestination("\(url) does not use https")
        }
        let host = Self.host(of: url)
        let kind = HostKind.classify(host)
        if scheme == "http" && !(allowHTTPLoopback && kind.isLoopback) {
            if allowHTTPLoopback {
                throw FetchError.unsafeDestination(
                    "\(url) uses http, which is allowed only for loopback hosts (localhost, 127.0.0.1, ::1)"
                )
            }
            let reason = "\(url) does not use https"
            throw kind.isLoopback ? FetchError.loopbackRefused(reason) : FetchError.unsafeDestination(reason)
        }
        guard url.hasUsablePort else {
            throw FetchError.unsafeDestination("\(url) names a port outside 1–65535 (RFC 9293 §3.1)")
        }
        switch kind {
        case .invalid:
            throw FetchError.unsafeDestination("\(url) has no usable host name")
        case .specialUseName:
            throw FetchError.unsafeDestination("“\(host)” is a local or special-use name, not a public server")
        case .localhost:
            guard allowHTTPLoopback else { throw loopbackRefused(host) }
        case .address(let address):
            let category = address.category
            if category == .loopback {
                guard allowHTTPLoopback else { throw loopbackRefused(host) }
            } else if !category.isGlobal {
                throw FetchError.unsafeDestination("\(host) is \(category)")
            }
        case .domainName:
            break
        }
        return kind
    }

    /// Checks every address a host resolved to: all loopback for `localhost`, all public for any other name.
    public func checkResolved(_ kind: HostKind, addresses: [IPAddress]) throws {
        guard !addresses.isEmpty else {
            throw FetchError.networkFailure("the host resolved to no address")
        }
        for address in addresses {
            let category = address.category
            switch kind {
            case .localhost where category != .loopback:
                throw FetchError.unsafeDestination("localhost resolves to \(address), which is \(category)")
            case .domainName where !category.isGlobal:
                let hint = category == .loopback ? "; only localhost and loopback literals count as loopback" : ""
                throw FetchError.unsafeDestination("the host resolves to \(address), which is \(category)\(hint)")
            default:
                continue
            }
        }
    }

    /// The URL's host without IPv6 brackets, as written (percent-encoded when it is not ASCII).
    static func host(of url: URL) -> String {
        var host = url.host(percentEncoded: true) ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    private func loopbackRefused(_ host: String) -> FetchError {
        FetchError.loopbackRefused(
            "\(host) is a loopback address, allowed only by the development option that allows loopback"
        )
    }
}
