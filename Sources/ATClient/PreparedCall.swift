import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport
import OAuthSessionManager

/// A call ready to go: the account's connection, the header fields, and the permissions the session must grant.
struct PreparedCall: Sendable {
    var nsid: NSID
    var connection: AccountConnection
    var headers: HTTPHeaders
    var needed: [Permission]

    /// The request to the PDS: `/xrpc/<nsid>` with `query` (already percent-encoded) and `body`.
    func request(_ method: HTTPMethod, query: String?, body: Data? = nil) -> PDSRequest {
        var request = PDSRequest(method: method, path: "/xrpc/\(nsid.rawValue)", percentEncodedQuery: query, body: body)
        request.headers = headers
        return request
    }

    /// Refuses, before sending, a session whose grant clearly lacks what the call needs.
    var authorize: @Sendable (Session) throws -> Void {
        { [needed, nsid, connection] session in
            try ATClient.checkLocally(needed, nsid, session, connection.displayName)
        }
    }
}
