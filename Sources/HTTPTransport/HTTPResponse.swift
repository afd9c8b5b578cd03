public import Foundation

/// An HTTP response: status, header fields and the whole body.
public struct HTTPResponse: Sendable {
    /// The status code, such as 200.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, fully read (and capped by the transport).
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is in 200–299.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
