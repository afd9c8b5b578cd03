import Foundation
import HTTPTransport

/// `com.atproto.server.getSession` answered as a PDS answers an OAuth grant that may not read the account's email:
/// without `email`, `emailConfirmed` and `emailAuthFactor` (atproto.com/specs/permission, `account:email`).
enum EmailRedaction {
    /// The method whose answer carries the email.
    static let method = "com.atproto.server.getSession"
    /// The members taken out.
    static let members = ["email", "emailConfirmed", "emailAuthFactor"]
    /// The largest answer read.
    static let maximumBytes = 1 << 20

    /// `answer` without the email members; an error answer as it is.
    ///
    /// - Throws: a 502 ``GatewayRefusal`` when a success cannot be read as a JSON object, so that nothing unread is
    ///   passed on; what reading the body throws.
    static func redacted(_ answer: HTTPStreamedResponse) async throws -> HTTPStreamedResponse {
        guard answer.isSuccess else { return answer }
        let unreadable = GatewayRefusal.upstreamFailed(
            "The PDS's getSession answer is not a JSON object; it is not passed on to a token that may not read "
                + "the email."
        )
        if let encoding = answer.headers["Content-Encoding"], encoding.lowercased() != "identity" { throw unreadable }
        let whole = try await answer.collected(upTo: maximumBytes)
        guard var object = (try? JSONSerialization.jsonObject(with: whole.body)) as? [String: Any] else {
            throw unreadable
        }
        for member in members { object.removeValue(forKey: member) }
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        var headers = whole.headers
        headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        return HTTPStreamedResponse(status: whole.status, headers: headers, body: .whole(body))
    }
}
