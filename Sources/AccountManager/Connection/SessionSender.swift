import DPoPRequestExecutor
import HTTPTransport

/// How a connection puts its session's access token on a request, by the session's kind, never mixed: a fresh DPoP
/// proof and `Authorization: DPoP` for OAuth (RFC 9449 §7.1), `Authorization: Bearer` and no proof for a legacy
/// app-password session (RFC 6750 §2.1).
enum SessionSender: Sendable {
    /// OAuth: the executor signs a proof with the session's DPoP key and handles nonces.
    case dpop(DPoPRequestExecutor)
    /// App password: the access JWT as a Bearer token, straight through the transport.
    case bearer(any HTTPTransport)

    /// The same sender over another transport.
    func over(_ transport: any HTTPTransport) -> SessionSender {
        switch self {
        case .dpop(let executor): .dpop(executor.over(transport))
        case .bearer: .bearer(transport)
        }
    }

    /// Sends `request` with `accessToken`.
    func send(_ request: HTTPRequest, accessToken: String) async throws -> HTTPResponse {
        switch self {
        case .dpop(let executor):
            return try await executor.send(request, accessToken: accessToken)
        case .bearer(let transport):
            return try await transport.send(Self.bearer(request, accessToken))
        }
    }

    /// Streams `request` with `body` and `accessToken`.
    func stream(
        _ request: HTTPRequest,
        body: HTTPRequestBody?,
        accessToken: String
    ) async throws -> HTTPStreamedResponse {
        switch self {
        case .dpop(let executor):
            return try await executor.stream(request, body: body, accessToken: accessToken)
        case .bearer(let transport):
            return try await transport.stream(Self.bearer(request, accessToken), body: body)
        }
    }

    private static func bearer(_ request: HTTPRequest, _ accessToken: String) -> HTTPRequest {
        var request = request
        request.headers.remove(name: "DPoP")
        request.headers.replaceOrAdd(name: "Authorization", value: "Bearer \(accessToken)")
        return request
    }
}
