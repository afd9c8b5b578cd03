package import DPoPRequestExecutor
package import Foundation
package import HTTPTransport
package import OAuthMetadata

/// A pushed authorization request as a sign-in sends it (RFC 9126 §2; atproto.com/specs/oauth, Authorization
/// Requests): the client, PKCE `S256`, `state`, the scope, and the account as a login hint.
///
/// A sign-in sends it and keeps what the callback needs; the doctor's probe sends the same request, observes each
/// attempt, and abandons it.
package struct PushedAuthorizationRequest: Sendable {
    /// The client asking, with its redirect URI and scope.
    package var client: OAuthClient
    /// The PKCE code challenge (RFC 7636 §4.2).
    package var codeChallenge: String
    /// The `state` the callback must bring back.
    package var state: String
    /// The account being signed in, when known (atproto.com/specs/oauth, Authorization Requests).
    package var loginHint: String? = nil
    /// What the server is asked to show.
    package var prompt: SignInPrompt? = nil

    /// Creates a request without a login hint or a prompt.
    package init(client: OAuthClient, codeChallenge: String, state: String) {
        self.client = client
        self.codeChallenge = codeChallenge
        self.state = state
    }

    /// The form sent, without the client authentication a confidential client adds to each attempt.
    var form: [(String, String)] {
        var form = [
            ("client_id", client.clientID), ("response_type", "code"), ("code_challenge", codeChallenge),
            ("code_challenge_method", PKCE.method), ("state", state),
            ("redirect_uri", client.redirectURI.absoluteString), ("scope", client.scope),
        ]
        if let loginHint { form.append(("login_hint", loginHint)) }
        if let prompt { form.append(("prompt", prompt.rawValue)) }
        return form
    }

    /// Sends the request to `endpoint` with a proof signed by `key`, retried once after a nonce challenge
    /// (RFC 9449 §8), and returns the last answer whatever its status.
    ///
    /// `observe` is told of each attempt's answer, the challenge included. Throws ``SessionError`` when no answer could be used (a repeated nonce challenge, the
    /// network).
    package func send(
        to endpoint: URL,
        key: DPoPKey,
        through poster: AuthorizationServerPoster,
        observe: (@Sendable (AuthorizationServerPoster.Attempt) -> Void)? = nil
    ) async throws -> HTTPResponse {
        try await send(to: endpoint, key: key, through: poster, client: nil, observe: observe)
    }

    /// Sends the request as ``send(to:key:through:observe:)`` does, as a confidential client when `client` is given.
    func send(
        to endpoint: URL,
        key: DPoPKey,
        through poster: AuthorizationServerPoster,
        client: ClientAuthenticator?,
        observe: (@Sendable (AuthorizationServerPoster.Attempt) -> Void)? = nil
    ) async throws -> HTTPResponse {
        try await poster.post(
            form,
            to: endpoint,
            key: key,
            purpose: "pushed authorization request",
            client: client,
            observe: observe
        )
    }

    /// What an accepted answer brings: `201 Created` with a `request_uri` and its lifetime (RFC 9126 §2.2).
    package struct Accepted: Sendable, Hashable {
        /// The reference the authorization endpoint is opened with.
        package var requestURI: String
        /// How long the reference is valid, in seconds, when the server says.
        package var expiresIn: Int?
    }

    /// The `request_uri` of a successful answer, or `nil` when it has none (RFC 9126 §2.2).
    package static func accepted(in response: HTTPResponse) -> Accepted? {
        guard response.isSuccess,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let requestURI = object["request_uri"] as? String, !requestURI.isEmpty
        else { return nil }
        return Accepted(requestURI: requestURI, expiresIn: (object["expires_in"] as? NSNumber)?.intValue)
    }

    /// The answer a sign-in goes on with: a 2xx (201 Created, or 200) with a `request_uri` (RFC 9126 §2.2).
    ///
    /// - Throws: ``SessionError``: `requestFailed` with the server's OAuth error for an error answer,
    ///   `invalidTokenResponse` for another status or no `request_uri`.
    static func requireAccepted(_ response: HTTPResponse) throws -> Accepted {
        try SessionManager.requireSuccess(response, of: "the pushed authorization request")
        guard response.status == 201 || response.status == 200 else {
            throw SessionError.invalidTokenResponse("the PAR answered HTTP \(response.status), not 201 Created")
        }
        guard let accepted = accepted(in: response) else {
            throw SessionError.invalidTokenResponse("the PAR answer has no request_uri")
        }
        return accepted
    }
}
