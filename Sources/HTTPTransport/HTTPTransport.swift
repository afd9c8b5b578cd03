/// Sends one HTTP request and returns the whole response; the seam every network call goes through.
///
/// A transport never follows redirects: a 3xx comes back as a response, so callers decide (the AT Protocol
/// OAuth profile forbids following them for metadata and token requests).
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response, or throws a ``TransportError``.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
