import Foundation
import HTTPTransport
import WireFormat

/// One request as the sandbox's handlers see it, independent of the HTTP server library.
struct SandboxRequest: Sendable {
    /// The method.
    var method: HTTPMethod
    /// The path, percent-encoded as received, such as `/oauth/par`.
    var path: String
    /// The raw query string without `?`, if any.
    var query: String?
    /// The header fields, names lowercased, values in wire order.
    var headers: [String: [String]]
    /// The whole body.
    var body: Data
    /// The URL the request was sent to, built from the origin the server listens on (the `Host` header is not
    /// trusted); the target a DPoP proof's `htu` must match.
    var url: URL
    /// The `Host` the client sent (HTTP/1.1's `Host` header, RFC 9110 §7.2), as it sent it.
    var authority: String?

    /// Creates a request from the server library's parts.
    init(
        method: String,
        path: String,
        query: String?,
        authority: String?,
        headers: [(String, String)],
        body: Data,
        origin: String
    ) {
        self.method = HTTPMethod(rawValue: method)
        self.authority = authority
        self.path = path
        self.query = query
        var fields: [String: [String]] = [:]
        for (name, value) in headers {
            fields[name.lowercased(), default: []].append(value)
        }
        self.headers = fields
        self.body = body
        let target = origin + path + (query.map { "?" + $0 } ?? "")
        self.url = URL(string: target) ?? URL(string: origin + "/") ?? URL(fileURLWithPath: "/")
    }

    /// The single value of a header field, or `nil` when absent.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]?.first
    }

    /// Every value of a header field.
    func headerValues(_ name: String) -> [String] {
        headers[name.lowercased()] ?? []
    }

    /// The query parameters; throws for a repeated or malformed one.
    func queryParameters() throws(FormEncoding.Failure) -> [String: String] {
        try FormEncoding.parse(query ?? "")
    }

    /// The media type of the body, lowercased, without parameters.
    var mediaType: String? {
        header("content-type")?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
    }

    /// `METHOD /path`, for logs.
    var summary: String { "\(method.rawValue) \(path)" }
}
