import Foundation
import Hummingbird
import HummingbirdCore
import WireFormat

/// Adapts an ``OriginHandler`` to Hummingbird: reads the whole body, builds a ``SandboxRequest``, and writes the
/// ``SandboxResponse`` back with exactly one `Date` header (RFC 9110 §6.6.1), in IMF-fixdate, from the sandbox's
/// clock, so the `clockSkew` fault shows in it.
struct OriginResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    private typealias FieldName = HTTPFields.Element.Name

    /// The handler that answers.
    let handler: any OriginHandler
    /// The origin (`http://127.0.0.1:port`), read when a request arrives because the port is known only then.
    let origin: @Sendable () -> String
    /// The sandbox's current time, for the `Date` header.
    let now: @Sendable () -> Date
    /// The largest body accepted, in bytes.
    let maximumBodySize: Int

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        await response(to: request)
    }

    /// The HTTP/1.1 server that answers with this responder and writes each answer itself.
    ///
    /// Hummingbird's `Application` would set the `Date` header of every answer from its own once-a-second cache of
    /// the real time, after the responder; so the server it builds is given this responder's own writer, and the
    /// responder it offers is left unused.
    var server: HTTPServerBuilder {
        let responder = self
        return HTTPServerBuilder { _ in
            HTTP1Channel(responder: { (request, writer: consuming ResponseWriter, _) in
                let response = await responder.response(to: request)
                do {
                    try await writer.write(response: response.head, body: response.body)
                } catch {
                    // Not an HTTPParserError, so the connection closes instead of being answered again, as
                    // Application does when a write fails.
                    throw ResponseNotWritten(underlying: error)
                }
            })
        }
    }

    /// The answer to one request, with its `Date` header.
    private func response(to request: Request) async -> Response {
        var request = request
        handler.headArrived(path: request.uri.path)
        let body: Data
        do {
            body = Data(try await request.collectBody(upTo: maximumBodySize).readableBytesView)
        } catch {
            return makeResponse(
                .xrpcError(413, "PayloadTooLarge", "the request body is larger than \(maximumBodySize) bytes")
            )
        }
        let headers = request.headers.map { ($0.name.rawName, $0.value) }
        let sandboxRequest = SandboxRequest(
            method: request.method.rawValue,
            path: request.uri.path,
            query: request.uri.query,
            headers: headers,
            body: body,
            origin: origin()
        )
        return makeResponse(await handler.handle(sandboxRequest))
    }

    private func makeResponse(_ response: SandboxResponse) -> Response {
        var response = response
        response.setHeader("Date", HTTPDate.format(now()))
        var fields = HTTPFields()
        for header in response.headers {
            if let name = FieldName(header.name) {
                fields.append(.init(name: name, value: header.value))
            }
        }
        return Response(
            status: .init(code: response.status),
            headers: fields,
            body: .init(byteBuffer: ByteBuffer(bytes: response.body))
        )
    }
}

/// An answer could not be written to the connection, which is then closed.
private struct ResponseNotWritten: Error {
    var underlying: any Error
}
