/// A transport that can connect to an address chosen by the caller while keeping the URL's host for `Host`, TLS
/// server name and certificate checks: what "resolve, check, then pin" needs to close the DNS-rebinding window.
public protocol AddressPinningTransport: HTTPTransport {
    /// Sends the request over a connection to `address` (an IP address literal) instead of resolving the URL's host.
    func send(_ request: HTTPRequest, connectingTo address: String) async throws -> HTTPResponse

    /// Streams the request as ``HTTPTransport/stream(_:body:)`` does, over a connection to `address`.
    func stream(
        _ request: HTTPRequest,
        body: HTTPRequestBody?,
        connectingTo address: String
    ) async throws -> HTTPStreamedResponse
}

extension AddressPinningTransport {
    /// Reads `body` whole and sends the request with ``send(_:connectingTo:)``.
    public func stream(
        _ request: HTTPRequest,
        body: HTTPRequestBody?,
        connectingTo address: String
    ) async throws -> HTTPStreamedResponse {
        var whole = request
        if let body { whole.body = try await body.collected() }
        return try await send(whole, connectingTo: address).streamed
    }
}
