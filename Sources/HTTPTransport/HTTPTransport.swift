/// Sends one HTTP request and returns the whole response; the seam every network call goes through.
///
/// A transport never follows redirects: a 3xx comes back as a response, so callers decide (the AT Protocol
/// OAuth profile forbids following them for metadata and token requests).
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response, or throws a ``TransportError``.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// Sends the request with `body` (in place of `request.body`) sent in chunks, and returns once the response's
    /// head arrives, its body to be read as it comes: for bodies too large to hold, such as blobs.
    ///
    /// A transport that cannot stream reads both bodies whole, which is what the default does.
    func stream(_ request: HTTPRequest, body: HTTPRequestBody?) async throws -> HTTPStreamedResponse
}

extension HTTPTransport {
    /// Reads `body` whole and sends the request with ``send(_:)``.
    public func stream(_ request: HTTPRequest, body: HTTPRequestBody?) async throws -> HTTPStreamedResponse {
        var whole = request
        if let body { whole.body = try await body.collected() }
        return try await send(whole).streamed
    }
}
