import Failures
import Foundation
import HTTPTransport
import Logging
import WireFormat

extension SessionManager {
    /// POSTs to a legacy session method of a PDS (`com.atproto.server.*Session`), with the JWT as
    /// `Authorization: Bearer` (RFC 6750 §2.1) and never a DPoP proof, after checking where it goes.
    ///
    /// The request, which may carry the app password or a refresh JWT, connects to the address that passed the check
    /// (atproto.com/specs/oauth, Security Concerns), so a DNS answer that changes in between cannot redirect it.
    func postLegacy(
        _ url: URL,
        bearer: String?,
        json: [String: String]?,
        purpose: String
    ) async throws -> HTTPResponse {
        let pinned = try await fetcher.pinnedTransport(for: url)
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let bearer { headers.replaceOrAdd(name: "Authorization", value: "Bearer \(bearer)") }
        var body: Data?
        if let json {
            headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            body = try JSONSerialization.data(withJSONObject: json)
        }
        logger.debug("POST \(url.absoluteString) (\(purpose))")
        do {
            let response = try await pinned.send(HTTPRequest(method: .post, url: url, headers: headers, body: body))
            logger.debug("\(purpose): HTTP \(response.status)")
            return response
        } catch let error as TransportError {
            throw SessionError.networkFailure(purpose, error)
        }
    }

    /// The URL of an XRPC method on a PDS origin.
    static func xrpcURL(_ pds: URL, _ method: String) throws -> URL {
        var text = pds.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text + "/xrpc/" + method) else {
            throw SessionError.networkFailure("The PDS address \(pds.absoluteString) cannot take an XRPC path.")
        }
        return url
    }

    /// Ends an app-password session at its PDS (`com.atproto.server.deleteSession` with the refresh JWT); throws
    /// when the PDS does not confirm.
    func deleteLegacySession(refreshJwt: String, endpoint: URL) async throws {
        let response = try await postLegacy(endpoint, bearer: refreshJwt, json: nil, purpose: "session deletion")
        guard response.isSuccess else {
            let body = ServerErrorBody(response.body, limit: nil)
            throw SessionError.requestFailed(
                "the session deletion",
                status: response.status,
                serverError: body.error,
                description: body.explanation
            )
        }
    }
}
