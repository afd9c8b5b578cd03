public import Failures
import Foundation
public import HTTPTransport
import WireFormat

/// An XRPC error answer as data: the `error` and `message` from the body, the status, and rate-limit headers.
public struct XRPCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The XRPC error name, such as `InvalidRequest` or `RecordNotFound`.
    public let error: String?
    /// The server's message, made safe to print.
    public let message: String?
    /// The HTTP status.
    public let status: Int
    /// The NSID of the method that failed.
    public let method: String
    /// The rate-limit headers (`ratelimit-limit`, `-remaining`, `-reset`, `-policy`), when present.
    public let rateLimit: RateLimit?

    /// A server's rate-limit state for the caller.
    public struct RateLimit: Sendable, Hashable {
        /// Requests allowed in the window.
        public var limit: Int?
        /// Requests left in the window.
        public var remaining: Int?
        /// When the window resets, in seconds since 1970.
        public var reset: Int?
        /// The policy string, as sent.
        public var policy: String?
    }

    /// Reads the error out of a non-2xx response.
    public init(method: String, response: HTTPResponse) {
        let body = ServerErrorBody(response.body, limit: nil)
        self.method = method
        self.status = response.status
        self.error = body.error.map { Self.printable($0, limit: 100) }
        self.message = body.message.map { Self.printable($0, limit: 500) }
        let headers = response.headers
        let rateLimit = RateLimit(
            limit: headers["ratelimit-limit"].flatMap { Int($0) },
            remaining: headers["ratelimit-remaining"].flatMap { Int($0) },
            reset: headers["ratelimit-reset"].flatMap { Int($0) },
            policy: headers["ratelimit-policy"]
        )
        self.rateLimit = rateLimit == RateLimit() ? nil : rateLimit
    }

    /// `<method> failed (HTTP 400 InvalidRequest): message`.
    public var description: String {
        var text = "\(method) failed (HTTP \(status)"
        if let error { text += " \(error)" }
        text += ")"
        if let message { text += ": \(message)" }
        if status == 429, let reset = rateLimit?.reset { text += ". Rate limited until \(reset) (Unix time)" }
        return text + "."
    }

    private static func printable(_ text: String, limit: Int) -> String {
        TerminalText.sanitized(text, limit: limit)
    }

}

extension XRPCError: CategorizedError {
    /// The PDS answered with an error; its status and name are kept as data.
    public var category: FailureCategory { .failed }

    /// The PDS (or the service it proxied to), which refused the call.
    public var origin: FailureOrigin { .upstream }
}
