import Foundation
import Hummingbird

/// One response as the sandbox's handlers write it.
struct SandboxResponse: Sendable {
    /// The status code.
    var status: Int
    /// The header fields, in order.
    var headers: [(name: String, value: String)]
    /// The body.
    var body: Data

    /// Creates a response.
    init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Sets a header, replacing any field of the same name.
    mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
    }

    /// A JSON response, never cached (RFC 6749 §5.1 asks `Pragma: no-cache` of a token answer too).
    static func json(_ status: Int, _ object: [String: Any], contentType: String = "application/json") -> Self {
        SandboxResponse(
            status: status,
            headers: [("Content-Type", contentType), ("Cache-Control", "no-store"), ("Pragma", "no-cache")],
            body: JSONBody.encode(object)
        )
    }

    /// An OAuth error (RFC 6749 §5.2): `{"error": code, "error_description": description}`.
    static func oauthError(_ status: Int, _ code: String, _ description: String) -> Self {
        json(status, ["error": code, "error_description": description])
    }

    /// An XRPC error: `{"error": name, "message": message}`.
    static func xrpcError(_ status: Int, _ name: String, _ message: String) -> Self {
        json(status, ["error": name, "message": message])
    }

    /// A redirect to `location`.
    static func redirect(_ location: String, status: Int = 302) -> Self {
        SandboxResponse(status: status, headers: [("Location", location), ("Cache-Control", "no-store")])
    }

    /// An HTML page that may not be framed, with a strict content security policy: images load only from
    /// `imageOrigin`, when one is given.
    static func html(_ status: Int, _ page: String, imageOrigin: String? = nil) -> Self {
        let policy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
        return SandboxResponse(
            status: status,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "no-store"),
                ("X-Frame-Options", "DENY"),
                ("Content-Security-Policy", policy + (imageOrigin.map { "; img-src " + $0 } ?? "")),
            ],
            body: Data(page.utf8)
        )
    }
}

extension SandboxResponse: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) -> Response {
        response
    }

    /// The answer as Hummingbird writes it; a header whose name is not a valid field name is left out.
    var response: Response {
        var fields = HTTPFields()
        for header in headers {
            if let name = HTTPFields.Element.Name(header.name) { fields.append(.init(name: name, value: header.value)) }
        }
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
