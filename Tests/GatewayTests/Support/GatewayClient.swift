import Foundation
import Gateway
import HTTPTransport

/// Calls a gateway on 127.0.0.1 as a local program would: plain HTTP, the gateway's token as a Bearer token.
struct GatewayClient: Sendable {
    /// A target that makes no URL.
    struct BadTarget: Error {}

    /// The gateway's port.
    let port: Int
    /// Its token.
    let token: String
    /// The client's transport (the world's AsyncHTTPClient transport).
    let transport: any HTTPTransport

    /// Sends `method target` with `headers`, and the gateway's token unless `authorized` is `false`.
    func send(
        _ target: String,
        method: HTTPMethod = .get,
        headers: HTTPHeaders = [:],
        body: Data? = nil,
        authorized: Bool = true
    ) async throws -> HTTPResponse {
        var headers = headers
        if authorized { headers.add(name: "Authorization", value: "Bearer \(token)") }
        guard let url = URL(string: "http://127.0.0.1:\(port)\(target)") else { throw BadTarget() }
        return try await transport.send(HTTPRequest(method: method, url: url, headers: headers, body: body))
    }

    /// Sends `GET target` with the gateway's token and returns at the answer's head, its body to be read as it
    /// comes: for answers larger than the transport reads whole.
    func stream(_ target: String) async throws -> HTTPStreamedResponse {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(target)") else { throw BadTarget() }
        return try await transport.stream(
            HTTPRequest(url: url, headers: ["Authorization": "Bearer \(token)"]),
            body: nil
        )
    }

    /// Uploads `blob` with `com.atproto.repo.uploadBlob`; returns the answer and the uploaded blob's CID, when it
    /// came back with one.
    func uploadBlob(_ blob: Data) async throws -> (answer: HTTPResponse, cid: String?) {
        let answer = try await send(
            "/xrpc/com.atproto.repo.uploadBlob",
            method: .post,
            headers: ["Content-Type": "application/octet-stream"],
            body: blob
        )
        let reference = try? Self.object(answer)["blob"] as? [String: Any]
        return (answer, (reference?["ref"] as? [String: Any])?["$link"] as? String)
    }

    /// The answer's body as a JSON object.
    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
    }

    /// The `error` of an XRPC error answer.
    static func errorName(_ response: HTTPResponse) throws -> String? {
        try object(response)["error"] as? String
    }
}
