public import Failures
import Foundation

/// A failure to exchange a request with a server: no response came, or it could not be read whole.
///
/// An HTTP error status is not a ``TransportError``: a 4xx, 5xx or 3xx comes back as an ``HTTPResponse``.
///
/// Errors are compared by ``code`` only, so `error == .timeout` matches a timeout whatever the request, as in
/// `catch let error as TransportError where error == .timeout`. The ``description`` says what happened to which
/// request and what to do. Neither it nor ``url`` ever shows the query string, fragment or user info of the URL,
/// because those can carry secrets such as an authorization code. ``mayHaveReachedServer`` says whether the server
/// may have carried the request out although no answer came.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which failure a ``TransportError`` is, whatever its details: compared with `==`, as in
    /// `error.code == .connectTimeout`.
    ///
    /// New codes may come in a later version: a `switch` over them needs a `default` case.
    @nonexhaustive
    public enum Code: String, NamedFailureCode {
        /// No connection (TCP, then TLS) could be set up within the connect timeout.
        case connectTimeout
        /// The whole exchange, body included, did not finish within the total timeout.
        case timeout
        /// The response body is larger than the configured maximum; the request was aborted.
        case responseTooLarge
        /// The server could not be reached or the connection broke: refused, name not found, TLS failure, reset.
        case connectionFailed
        /// The URL is not an absolute `http` or `https` URL with a host.
        case invalidURL
        /// The server's bytes are not valid HTTP.
        case invalidResponse
        /// The calling task was cancelled; the request was abandoned.
        case cancelled

        /// What a failure with this code says about the request having been sent, when nothing more is known.
        var mayHaveReachedServer: Bool {
            switch self {
            case .connectTimeout, .invalidURL: false
            case .timeout, .responseTooLarge, .connectionFailed, .invalidResponse, .cancelled: true
            }
        }
    }

    /// Which failure this is, whatever its details: `error.code == .cancelled`.
    public let code: Code

    /// The method of the request that failed; `nil` on the constants such as ``timeout``.
    public let method: HTTPMethod?

    /// The request's URL without query string, fragment or user info, safe to show; `nil` on the constants.
    public let url: String?

    /// What the layer below (AsyncHTTPClient, SwiftNIO) reported, with the query string removed; `nil` if nothing.
    public let underlying: String?

    /// Says what happened to which request, and what to do about it.
    public let description: String

    /// Whether the request may have reached the server, which may then have carried it out though no answer was read.
    ///
    /// `false` only when the failure certainly came before any byte of the request was sent: a URL that cannot be
    /// requested, a connection refused or not set up within the connect timeout, a host name that did not resolve,
    /// a failed TLS handshake, or a task cancelled before sending. After a timeout, a connection cut once it was
    /// open, or an answer too large or malformed, the server may have carried the request out, so a request that
    /// must not run twice (a refresh with a single-use token) cannot simply be sent again. The constants such as
    /// ``timeout`` carry what their code says when nothing more is known.
    public let mayHaveReachedServer: Bool

    private init(
        _ code: Code,
        method: HTTPMethod? = nil,
        url: String? = nil,
        underlying: String? = nil,
        mayHaveReachedServer: Bool? = nil,
        _ description: String
    ) {
        self.code = code
        self.method = method
        self.url = url
        self.underlying = underlying
        self.mayHaveReachedServer = mayHaveReachedServer ?? code.mayHaveReachedServer
        self.description = description
    }

    /// Returns whether two errors have the same code, ignoring their request and description.
    public static func == (lhs: TransportError, rhs: TransportError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code of the error.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// No connection (TCP, then TLS) could be set up within the connect timeout.
    public static let connectTimeout = TransportError(.connectTimeout, "Timed out connecting to the server.")
    /// The whole exchange, body included, did not finish within the total timeout.
    public static let timeout = TransportError(.timeout, "Timed out waiting for the response.")
    /// The response body is larger than the configured maximum; the request was aborted.
    public static let responseTooLarge = TransportError(.responseTooLarge, "The response is too large.")
    /// The server could not be reached or the connection broke: refused, name not found, TLS failure, reset.
    public static let connectionFailed = TransportError(.connectionFailed, "Could not reach the server.")
    /// The URL is not an absolute `http` or `https` URL with a host.
    public static let invalidURL = TransportError(.invalidURL, "The URL cannot be requested.")
    /// The server's bytes are not valid HTTP.
    public static let invalidResponse = TransportError(.invalidResponse, "The server sent a malformed response.")
    /// The calling task was cancelled; the request was abandoned.
    public static let cancelled = TransportError(.cancelled, "The request was cancelled.")
}

extension TransportError {
    static func connectTimeout(
        _ request: HTTPRequest,
        after limit: Duration,
        underlying: (any Error)?
    ) -> TransportError {
        make(
            .connectTimeout,
            request,
            underlying,
            "Timed out after \(format(limit)) connecting for \(target(request))"
                + " — check the network and the host name, and that the server is up."
        )
    }

    static func timeout(_ request: HTTPRequest, after limit: Duration, underlying: (any Error)?) -> TransportError {
        make(
            .timeout,
            request,
            underlying,
            "Timed out after \(format(limit)) waiting for \(target(request)) — the server is slow or unreachable; "
                + "try again later."
        )
    }

    static func responseTooLarge(
        _ request: HTTPRequest,
        limit: Int,
        setting: String? = "maximumResponseBytes"
    ) -> TransportError {
        let advice = setting.map { " — raise \($0) if the server is expected to send that much." } ?? "."
        return make(
            .responseTooLarge,
            request,
            nil,
            "The response to \(target(request)) is larger than the \(format(bytes: limit)) limit, so it was aborted"
                + advice
        )
    }

    static func connectionFailed(_ request: HTTPRequest, underlying: any Error) -> TransportError {
        let server = request.url.host.map { host in request.url.port.map { "\(host):\($0)" } ?? host } ?? "the server"
        let failure = ConnectionFailure(String(describing: underlying))
        let what =
            switch failure {
            case .refused:
                "Nothing accepted the connection to \(server) for \(target(request)) — is the server running, and is "
                    + "the address right?"
            case .unknownHost:
                "The name \(request.url.host ?? "") for \(target(request)) could not be resolved — check the address "
                    + "and the network."
            case .tlsHandshake, .tls:
                "The secure connection to \(server) for \(target(request)) failed: its TLS certificate or handshake "
                    + "was not accepted — check that the address is the right server."
            case .reset:
                "The connection to \(server) for \(target(request)) was cut by the server or the network — try again."
            case .other:
                "Could not reach \(server) for \(target(request)) — check the address and the network."
            }
        return make(.connectionFailed, request, underlying, reached: !failure.precedesRequest, what)
    }

    static func invalidURL(_ request: HTTPRequest) -> TransportError {
        make(
            .invalidURL,
            request,
            nil,
            "Cannot send \(target(request)) — only absolute http and https URLs with a host can be requested."
        )
    }

    static func invalidResponse(_ request: HTTPRequest, underlying: any Error) -> TransportError {
        let reason = request.url.redacting(from: String(describing: underlying))
        return make(
            .invalidResponse,
            request,
            underlying,
            "The server answered \(target(request)) with malformed HTTP (\(reason)) — the server is misbehaving."
        )
    }

    /// The calling task was cancelled; `beforeSending` when that was seen before the request was handed to the
    /// network, so nothing of it was sent.
    static func cancelled(_ request: HTTPRequest, beforeSending: Bool = false) -> TransportError {
        make(.cancelled, request, nil, reached: !beforeSending, "\(target(request)) was cancelled.")
    }

    private static func make(
        _ code: Code,
        _ request: HTTPRequest,
        _ underlying: (any Error)?,
        reached: Bool? = nil,
        _ description: String
    ) -> TransportError {
        TransportError(
            code,
            method: request.method,
            url: request.url.redactedDescription,
            underlying: underlying.map { request.url.redacting(from: String(describing: $0)) },
            mayHaveReachedServer: reached,
            description
        )
    }

    private static func target(_ request: HTTPRequest) -> String {
        "\(request.method) \(request.url.redactedDescription)"
    }

    /// Formats a duration as "30 s", "1.5 s" or "300 ms".
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.clampedNanoseconds / 1_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }

    /// Formats a byte count as "1 MiB", "64 KiB" or "1000 bytes".
    static func format(bytes: Int) -> String {
        if bytes > 0 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes > 0 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

extension TransportError: CategorizedError {
    /// `cancelled` when the calling task was; otherwise no answer came, or it could not be read: the network or the
    /// server failed.
    public var category: FailureCategory { code == .cancelled ? .cancelled : .failed }

    /// A timed-out request may succeed with more time; nothing in particular for the others.
    public var remedy: Remedy { code == .timeout ? .allowMoreTime : .none }
}

extension TransportError {
    /// Where the failure lies: the caller for a cancellation; otherwise the server or the network to it.
    public var origin: FailureOrigin {
        switch code {
        case .cancelled: .input
        case .connectTimeout, .timeout, .responseTooLarge, .connectionFailed, .invalidURL, .invalidResponse: .upstream
        }
    }
}
