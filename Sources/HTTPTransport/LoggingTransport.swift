import Foundation
public import Logging
import WireFormat

/// Logs each HTTP exchange (method, URL without query, status, time, header names) at debug level, with every
/// credential-bearing header value redacted; bodies are never logged, since they carry tokens and codes.
public struct LoggingTransport: AddressPinningTransport {
    /// The transport that does the work.
    public let base: any HTTPTransport
    /// Where exchanges are logged.
    public let logger: Logger

    /// Decorates a transport.
    public init(_ base: any HTTPTransport, logger: Logger) {
        self.base = base
        self.logger = logger
    }

    /// Sends through the base transport and logs the exchange.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await logged(request) { try await base.send(request) }
    }

    /// Sends pinned to `address` when the base transport can pin, else as ``send(_:)`` does.
    public func send(_ request: HTTPRequest, connectingTo address: String) async throws -> HTTPResponse {
        guard let pinning = base as? any AddressPinningTransport else { return try await send(request) }
        return try await logged(request) { try await pinning.send(request, connectingTo: address) }
    }

    /// Streams through the base transport and logs the exchange's head.
    public func stream(_ request: HTTPRequest, body: HTTPRequestBody?) async throws -> HTTPStreamedResponse {
        try await loggedHead(request, body) { try await base.stream(request, body: body) }
    }

    /// Streams pinned to `address` when the base transport can pin, else as ``stream(_:body:)`` does.
    public func stream(
        _ request: HTTPRequest,
        body: HTTPRequestBody?,
        connectingTo address: String
    ) async throws -> HTTPStreamedResponse {
        guard let pinning = base as? any AddressPinningTransport else { return try await stream(request, body: body) }
        return try await loggedHead(request, body) {
            try await pinning.stream(request, body: body, connectingTo: address)
        }
    }

    private func loggedHead(
        _ request: HTTPRequest,
        _ body: HTTPRequestBody?,
        _ exchange: () async throws -> HTTPStreamedResponse
    ) async throws -> HTTPStreamedResponse {
        try await logged(request, sending: "\(body?.length ?? 0) bytes, streamed", exchange) {
            (status: $0.status, headers: $0.headers, body: "streamed")
        }
    }

    private func logged(
        _ request: HTTPRequest,
        _ exchange: () async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try await logged(request, sending: "\(request.body?.count ?? 0) bytes", exchange) {
            (status: $0.status, headers: $0.headers, body: "\($0.body.count) bytes")
        }
    }

    /// Logs the request, then the answer's status, time, header names and what `describe` says of its body.
    private func logged<Answer>(
        _ request: HTTPRequest,
        sending body: String,
        _ exchange: () async throws -> Answer,
        describe: (Answer) -> (status: Int, headers: HTTPHeaders, body: String)
    ) async throws -> Answer {
        let started = ContinuousClock.now
        let target = "\(request.method) \(request.url.redactedDescription)"
        logger.debug("→ \(target) \(Self.describe(request.headers)) body: \(body)")
        do {
            let answer = try await exchange()
            let elapsed = ContinuousClock.now - started
            let (status, headers, received) = describe(answer)
            logger.debug(
                "← \(status) \(target) in \(elapsed.formatted(.units(allowed: [.milliseconds]))) \(Self.describe(headers)) body: \(received)"
            )
            return answer
        } catch {
            logger.debug("✗ \(target): \(error)")
            throw error
        }
    }

    /// Header names with values, except secrets: `Authorization`, `DPoP`, cookies and `Location` (which can carry a code) are shown as `<redacted>`.
    static func describe(_ headers: HTTPHeaders) -> String {
        let shown = headers.map { field -> String in
            let name = field.name.lowercased()
            // A server's header value reaches the terminal: no C0, C1 or bidi controls.
            let value = redactedNames.contains(name) ? "<redacted>" : TerminalText.sanitized(field.value, limit: 120)
            return "\(TerminalText.sanitized(field.name, limit: 80)): \(value)"
        }
        return "[" + shown.joined(separator: "; ") + "]"
    }

    private static let redactedNames: Set<String> = ["authorization", "dpop", "cookie", "set-cookie", "location"]
}
