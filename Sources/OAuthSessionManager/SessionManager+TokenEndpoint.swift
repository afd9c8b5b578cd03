import ATProtoIdentity
import ATProtoSyntax
import DPoPRequestExecutor
import Failures
import Foundation
import HTTPTransport
import Logging
import WireFormat

extension SessionManager {
    /// POSTs a form to an authorization server endpoint with a DPoP proof, through
    /// ``AuthorizationServerPoster/post(_:to:key:purpose:client:observe:)``.
    func postForm(
        _ pairs: [(String, String)],
        to endpoint: URL,
        key: DPoPKey,
        purpose: String,
        client: ClientAuthenticator? = nil
    ) async throws -> HTTPResponse {
        try await poster.post(pairs, to: endpoint, key: key, purpose: purpose, client: client)
    }

    /// How this manager reaches authorization server endpoints: its fetcher, nonces, randomness, clock and logger.
    var poster: AuthorizationServerPoster {
        AuthorizationServerPoster(fetcher: fetcher, nonceCache: nonceCache, random: random, now: now, logger: logger)
    }

    /// The OAuth `error` and `error_description` of an error answer (RFC 6749 §5.2), if it has them.
    static func oauthError(in response: HTTPResponse) -> (code: String?, description: String?) {
        let body = ServerErrorBody(response.body, limit: nil)
        return (body.error, body.errorDescription)
    }

    /// Revokes a token (RFC 7009 §2.1) with DPoP, as a confidential client when `client` is given; returns whether
    /// the server confirmed.
    func revoke(
        token: String,
        hint: String,
        endpoint: URL,
        clientID: String,
        key: DPoPKey,
        client: ClientAuthenticator? = nil
    ) async throws {
        let response = try await postForm(
            [("token", token), ("token_type_hint", hint), ("client_id", clientID)],
            to: endpoint,
            key: key,
            purpose: "revocation",
            client: client
        )
        try Self.requireSuccess(response, of: "revocation")
    }

    /// Revokes, best effort, the tokens of a token answer that cannot be kept (RFC 7009 §2): its refresh token,
    /// then its access token; a failure is logged as being about `what`.
    func revokeTokens(
        in body: Data,
        endpoint: URL?,
        clientID: String,
        key: DPoPKey,
        client: ClientAuthenticator? = nil,
        what: String
    ) async {
        guard let endpoint, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return }
        for hint in ["refresh_token", "access_token"] {
            guard let token = object[hint] as? String else { continue }
            do {
                try await revoke(
                    token: token,
                    hint: hint,
                    endpoint: endpoint,
                    clientID: clientID,
                    key: key,
                    client: client
                )
            } catch {
                logger.warning("could not revoke the \(hint) of \(what): \(error)")
            }
        }
    }

    /// Throws ``SessionError/requestFailed(_:status:serverError:description:)`` with the server's OAuth error when
    /// the answer is not a 2xx.
    static func requireSuccess(_ response: HTTPResponse, of what: String) throws {
        guard !response.isSuccess else { return }
        let (code, description) = oauthError(in: response)
        throw SessionError.requestFailed(what, status: response.status, serverError: code, description: description)
    }
}
