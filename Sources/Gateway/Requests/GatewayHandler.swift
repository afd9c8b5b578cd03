import ATClient
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import WireFormat

/// Answers every request the gateway receives, checking in this order: that it comes from this machine and not from
/// a browser (`Host`, `Origin`), the health check (no token), the gateway token, the metrics, and then an XRPC call,
/// forwarded as an account (``forward(_:nsid:writer:record:)``).
struct GatewayHandler: Sendable {
    let configuration: GatewayConfiguration
    /// The routed client of the signed-in accounts.
    let client: ATClient
    let metrics: GatewayMetrics
    let gate: AdmissionGate
    let bodies: RequestBodyReader
    let listening: ListeningSignal
    let logger: Logger
    /// The time, for the `Date` of the answers the gateway makes itself.
    let now: @Sendable () -> Date
    /// The `Date` value of the current second, made once a second.
    let dates = DateHeader()
    /// How many nonce challenges the account manager's requests have answered so far.
    let nonceRetries: @Sendable () -> Int
    /// Who a request's token is, and what it may do.
    let authenticator: GatewayAuthenticator
    /// The audit trail, when asked for.
    let audit: AuditLog?
    /// The calls to the PDS the answers wait for, cut short when the shutdown grace runs out.
    let upstream: UpstreamCalls

    /// What a request is answered with, and what to do once the answer is written.
    struct Answer: Sendable {
        var response: Response
        /// The admission to end once the answer is written.
        var admitted = false
        /// The spooled body to discard once the answer is written.
        var spooled: SpoolFile?
        /// Whether to close the connection after the answer: its body is still on the way and is not wanted.
        var closesConnection = false
    }

    /// The connection is closed after an answer to a request whose body was not read (RFC 9112 §9.6).
    struct ClosingConnection: Error {}

    /// Answers `request`, writes the answer, then counts and logs it.
    func serve(_ request: Request, writer: consuming ResponseWriter) async throws {
        let started = ContinuousClock.now
        var record = RequestRecord(
            method: request.method.rawValue,
            path: TerminalText.sanitized(request.uri.path, limit: 120)
        )
        let answer = await self.answer(request, writer: writer, record: &record)
        var response = answer.response
        // Every answer carries a Date: the PDS's, else the gateway's own (RFC 9110 §6.6.1).
        if response.headers[.date] == nil { response.headers[.date] = dates.header(for: now()) }
        if audit != nil { response.body = Self.counted(response.body, into: record.bytesOut) }
        var failure: (any Error)?
        do {
            try await writer.write(response: response.head, body: response.body)
        } catch {
            failure = error
        }
        answer.spooled?.discard()
        if answer.admitted { gate.leave() }
        finish(record, status: answer.response.status.code, started: started, failure: failure)
        if let failure { throw failure }
        if answer.closesConnection { throw ClosingConnection() }
    }

    private func answer(
        _ request: Request,
        writer: borrowing ResponseWriter,
        record: inout RequestRecord
    ) async -> Answer {
        let unreadBody = Self.carriesBody(request.headers)
        if let refusal = refusalOfOrigin(request) { return refuse(refusal, &record, closing: unreadBody) }
        if let coding = Self.undecodedTransferCoding(request.headers) {
            return refuse(.notImplemented(transferCoding: coding), &record, closing: unreadBody)
        }
        let path = request.uri.path
        if path == "/_gateway/health" {
            record.isHealthCheck = true
            guard request.method == .get else {
                return refuse(.methodNotAllowed(request.method.rawValue, allowed: "GET"), &record, closing: unreadBody)
            }
            return Answer(response: Self.json(#"{"status":"ok"}"#))
        }
        let grant: TokenGrant
        switch await authenticator.grant(request.headers[values: .authorization]) {
        case .success(let granted): grant = granted
        case .failure(let refusal): return refuse(refusal, &record, closing: unreadBody)
        }
        record.token = grant.name
        if path == "/_gateway/metrics" {
            guard request.method == .get else {
                return refuse(.methodNotAllowed(request.method.rawValue, allowed: "GET"), &record, closing: unreadBody)
            }
            // They name every account and token: a named token limited to some learns nothing of the others.
            guard grant.name == TokenGrant.startupName || !grant.isLimited else {
                return refuse(
                    .forbidden("The metrics are served to the start-up token and unrestricted named tokens only."),
                    &record,
                    closing: unreadBody
                )
            }
            return Answer(response: metricsResponse())
        }
        guard path.hasPrefix("/xrpc/") else { return refuse(.notFound, &record, closing: unreadBody) }
        let nsid = String(path.dropFirst("/xrpc/".count))
        return await forward(request, nsid: nsid, grant: grant, writer: writer, record: &record)
    }

    /// 403 for a `Host` other than the gateway's own address (a DNS rebinding page), and for a request a browser
    /// sent: it carries `Origin` (RFC 6454 §7) or `Sec-Fetch-Site` (W3C Fetch Metadata), which browsers send and
    /// programs do not (Node's `fetch` sends `Sec-Fetch-Mode` alone, so that one proves nothing).
    private func refusalOfOrigin(_ request: Request) -> GatewayRefusal? {
        // The first Host becomes the authority; a second stays a field. HTTP/1.1 allows one (RFC 9112 §3.2), and two
        // could name different hosts to the check here and to a proxy in front.
        guard !request.headers.contains(where: { $0.name.canonicalName == "host" }) else {
            return .invalidRequest("A request has one Host header; this one has several.")
        }
        // HTTP/1.1's Host reaches here as the request's authority (RFC 9110 §7.2).
        guard listening.hostCheck?.allows(request.head.authority) == true else {
            return .forbidden(
                "The Host header must name the gateway's own address; a request for another name is refused."
            )
        }
        let fromBrowser =
            !request.headers[values: .origin].isEmpty
            || request.headers.contains { $0.name.canonicalName == "sec-fetch-site" }
        guard !fromBrowser else {
            return .forbidden("Requests from a web browser are refused: the gateway serves local programs only.")
        }
        return nil
    }

    /// Answers with `refusal`, closing the connection when the request's body is on its way and unwanted.
    func refuse(_ refusal: GatewayRefusal, _ record: inout RequestRecord, closing: Bool = false) -> Answer {
        record.refusal = refusal
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        for header in refusal.headers {
            if let name = HTTPFields.Element.Name(header.name) { fields.append(.init(name: name, value: header.value)) }
        }
        if closing { fields[.connection] = "close" }
        let response = Response(
            status: .init(code: refusal.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: refusal.body))
        )
        return Answer(response: response, closesConnection: closing)
    }

    /// Whether the request carries a body: chunked, or a `Content-Length` that is not `0`.
    ///
    /// A refusal made before reading such a body never reads it: the answer says `Connection: close` and the
    /// connection is closed after it (RFC 9112 §9.6), so that a caller without a token cannot make the gateway read
    /// and drop bodies, and a client waiting for `100 Continue` (RFC 9110 §10.1.1) sends none.
    static func carriesBody(_ fields: HTTPFields) -> Bool {
        if !fields[values: .transferEncoding].isEmpty { return true }
        return fields[values: .contentLength].contains { $0 != "0" }
    }

    /// A transfer coding other than `chunked` that the request's `Transfer-Encoding` names, such as `gzip`: the
    /// gateway decodes none, and would otherwise pass the coded bytes on as the body (RFC 9112 §6.1).
    static func undecodedTransferCoding(_ fields: HTTPFields) -> String? {
        fields[values: .transferEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .first { $0 != "chunked" }
    }

    /// Whether the client holds its body back until it hears `100 Continue` (RFC 9110 §10.1.1).
    static func expectsContinue(_ fields: HTTPFields) -> Bool {
        fields[values: .expect].contains { $0.lowercased() == "100-continue" }
    }

    /// A JSON answer with status 200.
    static func json(_ text: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// The metrics in the Prometheus text format, version 0.0.4.
    private func metricsResponse() -> Response {
        metrics.nonceRetries(total: nonceRetries())
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition))
        )
    }

    /// Counts, logs and audits a request the HTTP/1 decoder could not read, which the server answers `400` with no
    /// body and closes: its method and path are not known, and are written `-`.
    func recordUnreadable(_ error: HTTPParserError) {
        var record = RequestRecord(method: "-", path: "-")
        record.refusal = .invalidRequest(
            "The request could not be read as HTTP/1.1 (\(error)); the connection was closed."
        )
        finish(record, status: 400, started: .now, failure: nil)
    }

    /// Counts and logs a finished request: one line, with its method, XRPC method (or path), status and duration;
    /// the account's DID only at debug level; never a token, a body, a query or an `Authorization` value.
    private func finish(_ record: RequestRecord, status: Int, started: ContinuousClock.Instant, failure: (any Error)?) {
        let elapsed = ContinuousClock.now - started
        metrics.finished(
            method: record.method,
            status: status,
            account: record.account,
            token: record.token,
            after: elapsed
        )
        audit(record, status: status, elapsed: elapsed)
        if let refusal = record.refusal { metrics.refused(refusal.name) }
        let level: Logger.Level
        if record.isHealthCheck {
            level = .debug
        } else if status >= 500 {
            level = .warning
        } else if record.refusal != nil {
            level = .notice
        } else {
            level = .info
        }
        // The line's metadata is made only when it is written.
        guard logger.logLevel <= level else { return }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": .string(record.method),
            "status": .stringConvertible(status),
            "duration_ms": .stringConvertible((milliseconds * 1000).rounded() / 1000),
        ]
        if let nsid = record.nsid { metadata["nsid"] = .string(nsid) } else { metadata["path"] = .string(record.path) }
        if let refusal = record.refusal {
            metadata["error"] = .string(refusal.name)
            metadata["reason"] = .string(refusal.message)
        }
        if logger.logLevel <= .debug, let account = record.account { metadata["account"] = .string(account) }
        if let failure { metadata["write_error"] = .string(String(describing: type(of: failure))) }
        logger.log(level: level, "request", metadata: metadata)
    }
}
