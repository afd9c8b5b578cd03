import Foundation
import HTTPTransport

/// Recognizes a server's demand for a fresh nonce (RFC 9449 §8 and §9); pure, so it is tested without I/O.
enum DPoPNonceChallenge {
    /// The error code both kinds of server use.
    static let errorCode = "use_dpop_nonce"

    /// Whether the response is an authorization server's `400 {"error":"use_dpop_nonce"}` or a resource server's
    /// `401` with a `WWW-Authenticate: DPoP error="use_dpop_nonce"` challenge.
    static func isChallenge(_ response: HTTPResponse) -> Bool {
        switch response.status {
        case 400: oauthErrorCode(in: response.body) == errorCode
        case 401:
            WWWAuthenticateChallenge.parse(response.headers.values(for: "WWW-Authenticate"))
                .contains { $0.hasScheme("DPoP") && $0.parameters["error"] == errorCode }
        default: false
        }
    }

    private static func oauthErrorCode(in body: Data) -> String? {
        guard body.count <= 64 * 1024,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return nil }
        return object["error"] as? String
    }
}
