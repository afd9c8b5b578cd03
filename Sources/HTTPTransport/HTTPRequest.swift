public import Foundation

/// An HTTP request as the transport sends it.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, including any query.
    public var url: URL
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, or `nil` for none.
    public var body: Data?

    /// Creates a request.
    public init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}
