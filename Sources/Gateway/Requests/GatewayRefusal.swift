import Foundation
import WireFormat

/// A request the gateway answers itself, with an error in the XRPC shape, `{"error":"<Name>","message":"…"}`
/// (atproto.com/specs/xrpc, Error Responses), and a log line; neither ever holds a token or a body.
struct GatewayRefusal: Error, Sendable {
    /// The HTTP status.
    var status: Int
    /// The error name, such as `AuthRequired`.
    var name: String
    /// What happened, for people; safe to print.
    var message: String
    /// More header fields: `WWW-Authenticate`, `Retry-After`, `Allow`.
    var headers: [(name: String, value: String)] = []

    init(_ status: Int, _ name: String, _ message: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.name = name
        self.message = TerminalText.sanitized(message, limit: 600)
        self.headers = headers
    }

    /// The JSON body.
    var body: Data {
        let object = ["error": name, "message": message]
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        return (try? JSONSerialization.data(withJSONObject: object, options: options))
            ?? Data(#"{"error":"InternalServerError"}"#.utf8)
    }

    /// The realm of the gateway's `WWW-Authenticate` challenge (RFC 6750 §3).
    static let challenge = (name: "WWW-Authenticate", value: #"Bearer realm="atoauth gateway""#)

    /// 403: a `Host` other than the gateway's address, or a browser's request.
    static func forbidden(_ message: String) -> GatewayRefusal { GatewayRefusal(403, "Forbidden", message) }

    /// 401: no gateway token, or another one (RFC 6750 §3.1; every 401 carries a challenge, RFC 9110 §15.5.2).
    static let authRequired = GatewayRefusal(
        401,
        "AuthRequired",
        "This gateway needs its token: send Authorization: Bearer <the token in the gateway's token file>.",
        headers: [challenge]
    )

    /// 404: a path the gateway does not serve.
    static let notFound = GatewayRefusal(
        404,
        "NotFound",
        "The gateway serves /xrpc/<nsid>, /_gateway/health and /_gateway/metrics."
    )

    /// 405: a method the path does not take.
    static func methodNotAllowed(_ method: String, allowed: String) -> GatewayRefusal {
        GatewayRefusal(
            405,
            "MethodNotAllowed",
            "\(method) is not served here; use \(allowed.replacingOccurrences(of: ", ", with: " or ")).",
            headers: [(name: "Allow", value: allowed)]
        )
    }

    /// 400: a request that cannot be forwarded as it is.
    static func invalidRequest(_ message: String) -> GatewayRefusal {
        GatewayRefusal(400, "InvalidRequest", message)
    }

    /// 501: a transfer coding the gateway does not decode (RFC 9112 §6.1).
    static func notImplemented(transferCoding coding: String) -> GatewayRefusal {
        GatewayRefusal(
            501,
            "NotImplemented",
            "The gateway decodes no transfer coding but chunked; send the body without "
                + "\(TerminalText.sanitized(coding, limit: 40))."
        )
    }

    /// 503: as many requests are in flight as the gateway takes.
    static func overloaded(limit: Int) -> GatewayRefusal {
        GatewayRefusal(
            503,
            "Overloaded",
            "The gateway has \(limit) requests in flight, its limit; try again in a moment.",
            headers: [(name: "Retry-After", value: "1")]
        )
    }

    /// 413: a body over the limit, said by `Content-Length` or found while reading.
    static func payloadTooLarge(limit: Int) -> GatewayRefusal {
        GatewayRefusal(413, "PayloadTooLarge", "The request body is larger than the gateway's limit of \(limit) bytes.")
    }

    /// 408: the client stopped sending its body.
    static func requestTimeout(_ message: String) -> GatewayRefusal {
        GatewayRefusal(408, "RequestTimeout", message)
    }

    /// 403: the account asked for is not signed in here, or none is.
    static func accountNotSignedIn(_ message: String) -> GatewayRefusal {
        GatewayRefusal(403, "AccountNotSignedIn", message)
    }

    /// 403: the session lacks a permission the call needs, in the PDS's own words (atproto.com/specs/permission).
    static func scopeMissing(_ permission: String?) -> GatewayRefusal {
        GatewayRefusal(
            403,
            "ScopeMissingError",
            permission.map { "Missing required scope \"\($0)\"" } ?? "Missing required scope"
        )
    }

    /// 401: the account's session ended; it must be signed in again.
    static func sessionEnded(_ message: String) -> GatewayRefusal {
        GatewayRefusal(401, "SessionEnded", message, headers: [challenge])
    }

    /// 502: the PDS could not be reached, or its answer could not be read.
    static func upstreamFailed(_ message: String) -> GatewayRefusal {
        GatewayRefusal(502, "UpstreamFailed", message)
    }

    /// 502: the PDS answered with a status no final answer has: outside 200–599, or 101 (a switch of protocols the
    /// gateway never asks for).
    static func upstreamInvalid(status: Int) -> GatewayRefusal {
        GatewayRefusal(502, "UpstreamInvalid", "The PDS answered with status \(status), which is not passed on.")
    }

    /// 503: the gateway is stopping and cut the request off.
    static let shuttingDown = GatewayRefusal(
        503,
        "ShuttingDown",
        "The gateway is stopping; the request was cut off.",
        headers: [(name: "Retry-After", value: "1")]
    )

    /// 500: anything else.
    static func internalError(_ message: String) -> GatewayRefusal {
        GatewayRefusal(500, "InternalServerError", message)
    }
}
