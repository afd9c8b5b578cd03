package import Foundation

/// One request as ``LoopbackHTTPServer`` received it.
package struct RecordedRequest: Sendable {
    /// The method token, such as `GET`.
    package var method: String
    /// The request target: path and query, such as `/xrpc/foo?x=1`.
    package var target: String
    /// The header fields in wire order.
    package var headers: [(name: String, value: String)]
    /// The body bytes, empty if none.
    package var body: Data

    /// The path without the query.
    package var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The query without `?`, or `nil` if there is none.
    package var query: String? {
        target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
    }

    /// The first value of the named header field, compared case-insensitively.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
