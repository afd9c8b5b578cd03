import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension AsyncHTTPClientTransport {
    /// Sends `body` in chunks as it is read and returns at the response's head; the body is read as it arrives,
    /// without the size cap of ``send(_:)`` (the caller reads what it chooses).
    ///
    /// Without a body, the head must come within ``Configuration/totalTimeout``. A request body may take longer, as
    /// one still arriving from elsewhere does, so with one there is no total deadline; either way a connection that
    /// writes nothing, or then reads nothing, for ``Configuration/totalTimeout`` fails.
    public func stream(_ request: HTTPRequest, body: HTTPRequestBody?) async throws -> HTTPStreamedResponse {
        try await stream(request, body: body, using: client)
    }

    /// Streams over the pool pinned to `address`, as ``send(_:connectingTo:)`` sends; when every kept pool is in
    /// use for other addresses, the bodies are read whole instead, since a pool of its own would have to outlive
    /// this call.
    public func stream(
        _ request: HTTPRequest,
        body: HTTPRequestBody?,
        connectingTo address: String
    ) async throws -> HTTPStreamedResponse {
        guard let host = request.url.host, !host.isEmpty else { return try await stream(request, body: body) }
        guard let pool = keptPinnedPool(host: host, address: address) else {
            var whole = request
            if let body { whole.body = try await body.collected() }
            return try await send(whole, connectingTo: address).streamed
        }
        return try await stream(request, body: body, using: pool)
    }

    private func stream(
        _ request: HTTPRequest,
        body: HTTPRequestBody?,
        using client: HTTPClient
    ) async throws -> HTTPStreamedResponse {
        var clientRequest = try makeClientRequest(request)
        if let body {
            clientRequest.body = .stream(body.chunks.map { ByteBuffer(bytes: $0) }, length: .known(Int64(body.length)))
        }
        guard !Task.isCancelled else { throw TransportError.cancelled(request, beforeSending: true) }
        let configuration = configuration
        let deadline =
            body == nil
            ? NIODeadline.now() + .nanoseconds(configuration.totalTimeout.clampedNanoseconds) : .distantFuture
        let response: HTTPClientResponse
        do {
            response = try await client.execute(clientRequest, deadline: deadline, logger: logger)
        } catch {
            throw TransportError(mapping: error, for: request, configuration: configuration)
        }
        let headers = HTTPHeaders(response.headers.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
        let chunks = response.body
        return HTTPStreamedResponse(
            status: Int(response.status.code),
            headers: headers,
            body: HTTPResponseBody {
                var iterator = chunks.makeAsyncIterator()
                return {
                    do {
                        return try await iterator.next().map { Data($0.readableBytesView) }
                    } catch {
                        throw TransportError(mapping: error, for: request, configuration: configuration)
                    }
                }
            }
        )
    }
}
