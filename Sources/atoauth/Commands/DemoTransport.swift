import Foundation
import HTTPTransport

/// Prints each exchange of the demo in one readable line, with secrets left out.
struct DemoTransport: HTTPTransport {
    let base: any HTTPTransport
    let log: DemoLog

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.url.path.isEmpty ? "/" : request.url.path
        let host = "\(request.url.host ?? ""):\(request.url.port.map(String.init) ?? "")"
        let response = try await base.send(request)
        var note = ""
        if let nonce = response.headers["DPoP-Nonce"], !nonce.isEmpty { note += " · new DPoP nonce" }
        if response.status == 400 || response.status == 401,
            let text = String(data: response.body.prefix(200), encoding: .utf8),
            text.contains("use_dpop_nonce")
                || (response.headers["WWW-Authenticate"] ?? "").contains("use_dpop_nonce")
        {
            note += " · use_dpop_nonce: retrying once with the new nonce"
        }
        let proof = request.headers["DPoP"] == nil ? "" : " [DPoP proof]"
        let token = request.headers["Authorization"] == nil ? "" : " [DPoP-bound token]"
        log.detail("\(request.method) \(host)\(path)\(proof)\(token) → \(response.status)\(note)")
        return response
    }
}
