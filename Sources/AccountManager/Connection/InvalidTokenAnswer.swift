import DPoPRequestExecutor
package import HTTPTransport
package import OAuthSessionManager
import WireFormat

/// Whether a PDS refused the access token: `401` with `WWW-Authenticate: DPoP error="invalid_token"`
/// (RFC 9449 §7.1, RFC 6750 §3.1), or the XRPC errors `InvalidToken` and `ExpiredToken` in the body.
///
/// A legacy Bearer session also counts `400` with `ExpiredToken` or `InvalidToken`, as the reference PDS answers an
/// expired or unknown access JWT.
package enum InvalidTokenAnswer {
    package static func matches(_ response: HTTPResponse, kind: SessionKind = .oauth) -> Bool {
        if kind == .appPassword, response.status == 400 {
            return ["InvalidToken", "ExpiredToken"].contains(ServerErrorBody(response.body).error ?? "")
        }
        guard response.status == 401 else { return false }
        let challenges = WWWAuthenticateChallenge.parse(response.headers.values(for: "WWW-Authenticate"))
        if challenges.contains(where: { $0.hasScheme("DPoP") && $0.parameters["error"] == "invalid_token" }) {
            return true
        }
        return ["InvalidToken", "ExpiredToken", "invalid_token"].contains(ServerErrorBody(response.body).error ?? "")
    }
}
