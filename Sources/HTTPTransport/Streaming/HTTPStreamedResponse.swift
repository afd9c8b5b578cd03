public import Foundation

/// A response whose head has arrived and whose body is read as it comes.
public struct HTTPStreamedResponse: Sendable {
    /// The status code, such as 200.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, to be read once.
    public var body: HTTPResponseBody

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: HTTPResponseBody = .whole(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The same response with its body read whole (at most `limit` bytes), for a caller that must look into it.
    public func collected(upTo limit: Int) async throws -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: try await body.collect(upTo: limit))
    }

    /// Whether the status is in 200–299.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

extension HTTPResponse {
    /// The response as a streamed one whose body is already read.
    public var streamed: HTTPStreamedResponse {
        HTTPStreamedResponse(status: status, headers: headers, body: .whole(body))
    }
}
