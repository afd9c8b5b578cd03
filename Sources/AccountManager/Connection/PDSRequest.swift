public import Foundation
public import HTTPTransport

/// A request to an account's PDS, as ``AccountConnection`` sends it: the connection adds the PDS origin, the token and
/// the DPoP proof.
public struct PDSRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The path on the PDS, such as `/xrpc/com.atproto.server.getSession`.
    public var path: String
    /// The query, already percent-encoded, without the `?`; `nil` or empty for none.
    public var percentEncodedQuery: String?
    /// More header fields; the connection sets `Authorization` and `DPoP` itself.
    public var headers: HTTPHeaders = [:]
    /// The body, or `nil` for none; a streamed body is given to ``AccountConnection/stream(_:body:timeout:logger:authorize:)``
    /// instead.
    public var body: Data?

    /// Creates a request without more header fields; set ``headers`` for those, as AsyncHTTPClient's are set.
    public init(method: HTTPMethod = .get, path: String, percentEncodedQuery: String? = nil, body: Data? = nil) {
        self.method = method
        self.path = path
        self.percentEncodedQuery = percentEncodedQuery
        self.body = body
    }

    /// The transport's request: the path and query appended to the PDS origin `pds`.
    ///
    /// - Throws: ``AccountError`` when they make no URL.
    func http(on pds: URL) throws -> HTTPRequest {
        var text = pds.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += path
        if let percentEncodedQuery, !percentEncodedQuery.isEmpty { text += "?" + percentEncodedQuery }
        guard let url = URL(string: text) else { throw AccountError.invalidRequest("cannot form a URL for \(path)") }
        return HTTPRequest(method: method, url: url, headers: headers, body: body)
    }
}
