import ATClient
import ATProtoPermissions
import ATProtoSyntax
import Foundation
import HTTPTransport
import Hummingbird
import HummingbirdCore
import NIOCore
import WireFormat

extension GatewayHandler {
    /// The largest JSON body looked into for its `repo` and the permissions it needs.
    static let inspectableBodyLimit = 256 << 10

    /// Forwards `/xrpc/<nsid>` as an account: checks the NSID, the method and the gateway's load, reads the body
    /// (``forwardAdmitted(_:nsid:method:writer:record:)``), and passes the PDS's answer on.
    func forward(
        _ request: Request,
        nsid name: String,
        grant: TokenGrant,
        writer: borrowing ResponseWriter,
        record: inout RequestRecord
    ) async -> Answer {
        let unwanted = Self.carriesBody(request.headers)
        guard let spelled = try? NSID(validating: name) else {
            let shown = TerminalText.sanitized(name, limit: 120)
            return refuse(
                .invalidRequest("“\(shown)” is not an NSID such as com.atproto.server.getSession."),
                &record,
                closing: unwanted
            )
        }
        // A PDS routes method names without regard to case: the one it runs is the one checked and sent.
        let nsid = PDSMethods.canonical(spelled)
        record.nsid = nsid.rawValue
        guard !GatewayRefusal.unlentMethods.contains(nsid.rawValue) else {
            return refuse(.notLent(nsid), &record, closing: unwanted)
        }
        let method: HTTPMethod
        switch request.method {
        case .get: method = .get
        case .post: method = .post
        default:
            return refuse(.methodNotAllowed(request.method.rawValue, allowed: "GET, POST"), &record, closing: unwanted)
        }
        guard gate.enter() else { return refuse(.overloaded(limit: gate.limit), &record, closing: unwanted) }
        var answer = await forwardAdmitted(
            request,
            call: LentCall(nsid: nsid, method: method, grant: grant),
            writer: writer,
            record: &record
        )
        answer.admitted = true
        return answer
    }

    /// Forwards an admitted call: its body's size, the account and proxy it names, its query, the account and
    /// permissions when the body does not route the call, then the body (read whole, or, when large, sent on as it
    /// arrives) and the call sent through the routed client.
    private func forwardAdmitted(
        _ request: Request,
        call lent: LentCall,
        writer: borrowing ResponseWriter,
        record: inout RequestRecord
    ) async -> Answer {
        let nsid = lent.nsid
        let method = lent.method
        let fields = request.headers
        let unwanted = Self.carriesBody(fields)
        let lengths = fields[values: .contentLength]
        var declaredLength: Int?
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), let length = Int(first), length >= 0 else {
                return refuse(.invalidRequest("Content-Length must be one number of bytes."), &record, closing: true)
            }
            declaredLength = length
        }
        // Refused before a byte of the body is read (RFC 9110 §15.5.14).
        if let declaredLength, declaredLength > configuration.maximumBodyBytes {
            return refuse(.payloadTooLarge(limit: configuration.maximumBodyBytes), &record, closing: unwanted)
        }
        let hasBody = !fields[values: .transferEncoding].isEmpty || (declaredLength ?? 0) > 0
        if method == .get, hasBody {
            return refuse(.invalidRequest("A query (GET) takes no body."), &record, closing: unwanted)
        }
        let accounts = Self.values(fields, named: ForwardedHeaders.account)
        let proxies = Self.values(fields, named: ForwardedHeaders.proxy)
        guard accounts.count <= 1, proxies.count <= 1 else {
            return refuse(
                .invalidRequest("atoauth-account and atproto-proxy may each be given once."),
                &record,
                closing: unwanted
            )
        }
        // Checked as `xrpc --proxy` checks it: the permission a proxied call needs names this service.
        if let proxy = proxies.first, ServiceReference(rawValue: proxy) == nil {
            let shown = TerminalText.sanitized(proxy, limit: 120)
            return refuse(
                .invalidRequest(
                    "atproto-proxy takes DID#SERVICE, such as did:web:api.bsky.app#bsky_appview, not “\(shown)”."
                ),
                &record,
                closing: unwanted
            )
        }
        var account: ATIdentifier?
        if let text = accounts.first {
            guard let identifier = try? ATIdentifier(typed: text.trimmingCharacters(in: .whitespaces)) else {
                let shown = TerminalText.sanitized(text, limit: 120)
                return refuse(
                    .invalidRequest("atoauth-account must be a handle or a DID, not “\(shown)”."),
                    &record,
                    closing: unwanted
                )
            }
            account = identifier
        }
        let query = request.uri.query.flatMap { $0.isEmpty ? nil : $0 }
        let parameters: [(String, String)]
        do {
            parameters = try query.map { try FormEncoding.parsePairs($0) } ?? []
        } catch {
            return refuse(.invalidRequest("The query string cannot be read: \(error)."), &record, closing: unwanted)
        }
        var naming = lent
        naming.namesAccount = account != nil || parameters.contains { $0.0 == "repo" }
        let lent = naming
        let contentType = fields[values: .contentType].first
        var call = XRPCForwardedRequest(nsid: nsid, method: method, contentType: hasBody ? contentType : nil)
        call.percentEncodedQuery = query
        call.parameters = parameters
        call.headers = ForwardedHeaders.outgoing(fields)
        call.proxy = proxies.first
        // A call its body does not route is refused, when it must be, before the body is read: a large upload bound
        // to fail is answered before it is sent, or, without `Expect`, dropped as it arrives rather than kept.
        if hasBody, !Self.isRoutedByBody(contentType: contentType, declaredLength: declaredLength) {
            do {
                let fallback = lent.fallback(configuration)
                _ = try await upstream.run { [client, call, account] in
                    try await client.preflight(call, as: account, otherwise: fallback, admit: lent.admit)
                }
            } catch {
                return refuse(lent.refusal(of: error), &record, closing: unwanted)
            }
        }
        var body: RequestBodyReader.Body?
        var arriving: (file: SpoolFile, length: Int)?
        if hasBody {
            // The client waits for this before sending a body it announced with Expect (RFC 9110 §10.1.1).
            if Self.expectsContinue(fields) {
                try? await writer.writeInformationalHead(.init(status: .continue))
            }
            do {
                if let length = declaredLength, length > GatewayConfiguration.memoryBodyLimit,
                    fields[values: .transferEncoding].isEmpty
                {
                    // Too large to look into: sent on as it arrives, kept on disk for a retry.
                    arriving = (try bodies.spool.create(), length)
                } else {
                    body = try await bodies.read(request.body, declaredLength: declaredLength)
                }
            } catch {
                return refuse(Self.refusal(ofBody: error), &record, closing: true)
            }
        }
        if let bytes = body?.bytes, Self.isRoutedByBody(contentType: contentType, declaredLength: bytes.count) {
            call.inspectableBody = bytes
        }
        call.body = arriving.map { $0.file.growingBody(length: $0.length) } ?? body?.body
        guard let arriving else {
            record.bytesIn = body?.length ?? 0
            return answering(await forwarded(call, as: account, lent), spooled: body?.file, &record)
        }
        // The body is received while it is forwarded; the answer waits until the client has sent all of it.
        async let received = bodies.receive(request.body, declaredLength: arriving.length, into: arriving.file)
        let answer = await forwarded(call, as: account, lent)
        let (receivedLength, failure) = await received
        record.bytesIn = receivedLength
        if let failure {
            arriving.file.discard()
            return refuse(Self.refusal(ofBody: failure), &record, closing: true)
        }
        return answering(answer, spooled: arriving.file, &record)
    }

    /// The PDS's answer to a forwarded call, or why there is none.
    private typealias Forwarded = Result<XRPCForwardedResponse, any Error>

    /// The call sent through the routed client, as `account` else the token's or the configured fallback, once
    /// the token's limits admit it; the answer without the account's email when the token may not read it.
    private func forwarded(
        _ call: XRPCForwardedRequest,
        as account: ATIdentifier?,
        _ lent: LentCall
    ) async -> Forwarded {
        do {
            let fallback = lent.fallback(configuration)
            return .success(
                try await upstream.run { [client] in
                    var answer = try await client.forward(call, as: account, otherwise: fallback, admit: lent.admit)
                    if lent.grant.hidesEmail(from: lent.nsid) {
                        answer.response = try await EmailRedaction.redacted(answer.response)
                    }
                    return answer
                }
            )
        } catch {
            return .failure(lent.refusal(of: error))
        }
    }

    /// The PDS's answer passed on, its spooled body kept until it is written; or the failure to get one, the body
    /// discarded.
    private func answering(
        _ forwarded: Forwarded,
        spooled: SpoolFile?,
        _ record: inout RequestRecord
    ) -> Answer {
        switch forwarded {
        case .success(let answer):
            record.account = answer.account.rawValue
            // A status no final answer has (RFC 9110 §15), or a switch of protocols, is not passed on.
            guard (200...599).contains(answer.response.status) else {
                spooled?.discard()
                return refuse(.upstreamInvalid(status: answer.response.status), &record)
            }
            return Answer(response: Self.passedOn(answer.response), spooled: spooled)
        case .failure(let error):
            spooled?.discard()
            return refuse(.answering(error), &record)
        }
    }

    /// What the client hears when its body could not be read: the reader's own refusal (413, 408, 400), else a 500
    /// naming the spool's trouble.
    static func refusal(ofBody error: any Error) -> GatewayRefusal {
        (error as? GatewayRefusal) ?? .internalError("\(error).")
    }

    /// The PDS's answer as the client gets it: its status, the fields that describe it, and its body streamed as it
    /// arrives.
    static func passedOn(_ upstream: HTTPStreamedResponse) -> Response {
        let fields = ForwardedHeaders.returned(upstream.headers)
        let length = fields[values: .contentLength].first.flatMap { Int($0) }
        let chunks = upstream.body
        let body = ResponseBody(contentLength: length) { writer in
            for try await chunk in chunks {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(status: .init(code: upstream.status), headers: fields, body: body)
    }

    /// Whether a body of this type and length may be looked into for the `repo` that chooses the account and for
    /// the permissions the call needs: JSON up to ``inspectableBodyLimit``, or of a length not told (chunked).
    static func isRoutedByBody(contentType: String?, declaredLength: Int?) -> Bool {
        ContentTypeField.isJSON(contentType) && (declaredLength ?? 0) <= inspectableBodyLimit
    }

    /// The values of the fields named `name` (lowercase), in order.
    static func values(_ fields: HTTPFields, named name: String) -> [String] {
        fields.filter { $0.name.canonicalName == name }.map(\.value)
    }
}
