import Foundation
import Hummingbird

/// Adapts an ``OriginHandler`` to Hummingbird: reads the whole body, builds a ``SandboxRequest``, and writes the
/// ``SandboxResponse`` back.
struct OriginResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    private typealias FieldName = HTTPFields.Element.Name

    /// The handler that answers.
    let handler: any OriginHandler
    /// The origin (`http://127.0.0.1:port`), read when a request arrives because the port is known only then.
    let origin: @Sendable () -> String
    /// The largest body accepted, in bytes.
    let maximumBodySize: Int

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        var request = request
        let body: Data
        do {
            body = Data(try await request.collectBody(upTo: maximumBodySize).readableBytesView)
        } catch {
            return Self.makeResponse(
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
        return Self.makeResponse(await handler.handle(sandboxRequest))
    }

    private static func makeResponse(_ response: SandboxResponse) -> Response {
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
