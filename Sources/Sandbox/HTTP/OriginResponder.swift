import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import WireFormat

/// Serves one origin's router: reads the whole body into a ``SandboxContext``, and writes each answer with exactly
/// one `Date` header (RFC 9110 §6.6.1), in IMF-fixdate, from the sandbox's clock, so the `clockSkew` fault shows in
/// it.
struct OriginResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// The origin's routes.
    let router: RouterResponder<SandboxContext>
    /// Notes a request whose head has arrived.
    let headArrived: @Sendable (String) -> Void
    /// The origin (`http://127.0.0.1:port`), read when a request arrives because the port is known only then.
    let origin: @Sendable () -> String
    /// The sandbox's current time, for the `Date` header.
    let now: @Sendable () -> Date
    /// The largest body accepted, in bytes.
    let maximumBodySize: Int
    /// The logger of the request contexts.
    let logger: Logger

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
        // A CORS preflight is no request of the origin's own, and is not counted as one.
        if request.method != .options { headArrived(request.uri.path) }
        let body: Data
        do {
            body = Data(try await request.collectBody(upTo: maximumBodySize).readableBytesView)
        } catch {
            let tooLarge = "the request body is larger than \(maximumBodySize) bytes"
            return dated(SandboxResponse.xrpcError(413, "PayloadTooLarge", tooLarge).response)
        }
        let sandboxRequest = SandboxRequest(
            method: request.method.rawValue,
            path: request.uri.path,
            query: request.uri.query,
            authority: request.head.authority,
            headers: request.headers.map { ($0.name.rawName, $0.value) },
            body: body,
            origin: origin()
        )
        let context = SandboxContext(source: .init(logger: logger, request: sandboxRequest))
        // The routes answer every failure; a thrown error is one they did not foresee.
        return dated(
            (try? await router.respond(to: request, context: context)) ?? Response(status: .internalServerError)
        )
    }

    private func dated(_ response: Response) -> Response {
        var response = response
        if let name = HTTPFields.Element.Name("Date") { response.headers[name] = HTTPDate.format(now()) }
        return response
    }
}

/// An answer could not be written to the connection, which is then closed.
private struct ResponseNotWritten: Error {
    var underlying: any Error
}
