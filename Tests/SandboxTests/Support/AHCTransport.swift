import AsyncHTTPClient
import Foundation
import HTTPTransport
import NIOCore
import NIOHTTP1

/// The `HTTPTransport` over AsyncHTTPClient, never following redirects, for talking to the real sandbox.
struct AHCTransport: HTTPTransport {
    let client: HTTPClient
    /// AsyncHTTPClient retries a refused connection until this deadline.
    var timeoutSeconds: Int64 = 10

    static func make() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .init(rawValue: request.method.rawValue)
        for field in request.headers {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(Array(body))
        }
        let response = try await client.execute(outgoing, timeout: .seconds(timeoutSeconds))
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return HTTPResponse(
            status: Int(response.status.code),
            headerPairs: response.headers.map { ($0.name, $0.value) },
            body: Data(body.readableBytesView)
        )
    }
}
