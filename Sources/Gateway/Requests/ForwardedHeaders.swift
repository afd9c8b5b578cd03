import ATClient
import Foundation
import HTTPTransport
import Hummingbird

/// Which header fields cross the gateway, each way.
///
/// Towards the PDS, everything the client sent but the gateway's own credentials and what the gateway or its
/// client sets itself: the incoming `Authorization`, `DPoP` and `Cookie` never leave the machine, nor do `Host`,
/// the hop-by-hop fields (RFC 9110 §7.6.1), `atoauth-account`, the body's framing and type, `Expect` (answered
/// here), `Accept-Encoding` (answers are passed on as sent) and a browser's `Origin` and `Sec-*` fields.
/// `atproto-proxy` goes separately, so the permission check sees it.
///
/// Back to the client, only what describes the answer: its `Content-Type`, `Content-Length`, `Content-Encoding`,
/// `Date`, `Retry-After`, and the `atproto-*` and `ratelimit-*` fields; never `DPoP-Nonce`, `WWW-Authenticate`
/// (the PDS's challenge is for the gateway, not for its client), `Set-Cookie` or a hop-by-hop field.
enum ForwardedHeaders {
    /// A header field (HTTPTypes' `HTTPField`, which Hummingbird exports as its fields' element).
    private typealias Field = HTTPFields.Element

    /// The name of the field that chooses the account.
    static let account = "atoauth-account"
    /// The name of the field that names the service the PDS forwards to (atproto.com/specs/xrpc, Service Proxying).
    static let proxy = "atproto-proxy"

    /// Fields never forwarded, lowercased.
    static let withheld: Set<String> = [
        "authorization", "dpop", "cookie", "host", "connection", "keep-alive", "te", "trailer", "transfer-encoding",
        "upgrade", "content-length", "content-type", "expect", "accept-encoding", "origin", account, proxy,
    ]

    /// The fields of `fields` to send to the PDS.
    static func outgoing(_ fields: HTTPFields) -> HTTPHeaders {
        // Connection names more hop-by-hop fields, which go no further either (RFC 9110 §7.6.1).
        let named = Set(
            fields[values: .connection].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        )
        var headers = HTTPHeaders()
        for field in fields {
            let name = field.name.canonicalName
            guard !withheld.contains(name), !named.contains(name), !name.hasPrefix("proxy-"), !name.hasPrefix("sec-"),
                !ATClient.reservedHeaders.contains(name)
            else { continue }
            headers.add(name: field.name.rawName, value: field.value)
        }
        return headers
    }

    /// The fields of the PDS's answer to pass back to the client.
    static func returned(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            let name = header.name.lowercased()
            guard passedBack.contains(name) || name.hasPrefix("atproto-") || name.hasPrefix("ratelimit-"),
                let fieldName = Field.Name(header.name)
            else { continue }
            fields.append(Field(name: fieldName, value: header.value))
        }
        return fields
    }

    /// The answer's own fields passed back, lowercased.
    private static let passedBack: Set<String> = [
        "content-type", "content-length", "content-encoding", "date", "retry-after",
    ]
}
