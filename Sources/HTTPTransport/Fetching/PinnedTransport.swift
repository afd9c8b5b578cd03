import Foundation

/// A transport whose requests for one checked host connect to the address that passed the check, so that a DNS
/// answer that changes afterwards (DNS rebinding) cannot send them elsewhere; ``SafeFetcher/pinnedTransport(for:)``
/// makes it.
///
/// The `Host` header, the TLS server name and the certificate check still use the host name. A request for another
/// host goes out as the base transport sends it, unchecked here: its caller checks it. So does every request when
/// the checked host is an address literal (the connection goes to that very address), and every request over a base
/// transport that is not an ``AddressPinningTransport``.
public struct PinnedTransport: HTTPTransport {
    /// The transport that carries the requests.
    public let base: any HTTPTransport
    /// The checked host, ASCII-lowercased, without IPv6 brackets.
    public let host: String
    /// The checked address that requests for ``host`` connect to, or `nil` when the host is an address literal.
    public let address: IPAddress?

    init(base: any HTTPTransport, host: String, address: IPAddress?) {
        self.base = base
        self.host = HostKind.asciiLowercased(host)
        self.address = address
    }

    /// Sends the request over a connection to ``address`` when it is for ``host`` and the base transport can pin,
    /// else as the base transport sends it.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let address, let pinning = base as? any AddressPinningTransport, pins(request.url) else {
            return try await base.send(request)
        }
        return try await pinning.send(request, connectingTo: address.description)
    }

    /// Streams the request over a connection to ``address`` as ``send(_:)`` sends it.
    public func stream(_ request: HTTPRequest, body: HTTPRequestBody?) async throws -> HTTPStreamedResponse {
        guard let address, let pinning = base as? any AddressPinningTransport, pins(request.url) else {
            return try await base.stream(request, body: body)
        }
        return try await pinning.stream(request, body: body, connectingTo: address.description)
    }

    /// Whether `url` names the checked host; host names compare case-insensitively (RFC 4343 §3).
    func pins(_ url: URL) -> Bool {
        HostKind.asciiLowercased(DestinationPolicy.host(of: url)) == host
    }
}
