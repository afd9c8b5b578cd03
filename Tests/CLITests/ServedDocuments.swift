import ATOAuthTesting
import Foundation
import Synchronization

/// Serves JSON on 127.0.0.1, runs `body` with the server's origin, and stops the server on every path.
///
/// Each request is answered with `documents(origin, path)`, given the origin (`http://127.0.0.1:<port>`) so that a
/// client metadata document can name its own URL: a JSON value, or `Data` served as it is; `nil` answers 404.
func withServedDocuments<T>(
    _ documents: @escaping @Sendable (_ origin: String, _ path: String) -> Any?,
    _ body: (String) async throws -> T
) async throws -> T {
    let origin = Mutex<String>("")
    let handler: LoopbackHTTPServer.Handler = { request in
        let path = String(request.target.prefix { $0 != "?" })
        let document = documents(origin.withLock { $0 }, path)
        guard
            let json = document as? Data
                ?? document.flatMap({ try? JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) })
        else { return .json(#"{"error":"NotFound"}"#, status: 404) }
        return ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: json)
    }
    return try await LoopbackHTTPServer.withServer(handler: handler) { server in
        origin.withLock { $0 = server.baseURL.absoluteString }
        return try await body(server.baseURL.absoluteString)
    }
}
