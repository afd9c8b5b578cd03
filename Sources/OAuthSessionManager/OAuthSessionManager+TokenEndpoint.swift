import ATProtoIdentity
import ATProtoSyntax
import DPoPRequestExecutor
import Failures
import Foundation
import HTTPTransport
import Logging
import WireFormat

extension OAuthSessionManager {
    /// POSTs a form to an authorization server endpoint with a DPoP proof (no `ath`), after checking where it goes.
    ///
    /// The request, and its retry after a nonce challenge (RFC 9449 §8), connect to the address that passed the
    /// check (atproto.com/specs/oauth, Security Concerns), so a DNS answer that changes in between cannot redirect
    /// them.
    ///
    /// A confidential client's request (`client` given) carries a new client assertion on each attempt, the nonce
    /// retry included (RFC 7523 §3).
    func postForm(
        _ pairs: [(String, String)],
        to endpoint: URL,
        key: DPoPKey,
        purpose: String,
        client: ClientAuthenticator? = nil
    ) async throws -> HTTPResponse {
        let pinned = try await fetcher.pinnedTransport(for: endpoint)
        let request = HTTPRequest(
            method: .post,
            url: endpoint,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: FormEncoding.body(pairs)
        )
        logger.debug("POST \(endpoint.absoluteString) (\(purpose))")
        do {
            let prepare: ((inout HTTPRequest) throws -> Void)? = client.map { client in
                { attempt in attempt.body = FormEncoding.body(pairs + (try client.parameters())) }
            }
            let response = try await executor(for: key, over: pinned).send(request, preparingEachAttempt: prepare)
            logger.debug("\(purpose): HTTP \(response.status)")
            return response
        } catch let error as DPoPError {
            throw OAuthError.dpopFailed(error.description)
        } catch let error as OAuthError {
            throw error
        } catch let error as TransportError {
            throw OAuthError.networkFailure(purpose, error)
        } catch {
            // An error the transport does not describe: nothing says the request was not sent.
            throw OAuthError.networkFailure(
                "The \(purpose) to \(endpoint.host ?? "the server") failed (\(error)) — check the network and try again",
                outcomeUnknown: true
            )
        }
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

    /// Throws ``OAuthError/requestFailed(_:status:serverError:description:)`` with the server's OAuth error when
    /// the answer is not a 2xx.
    static func requireSuccess(_ response: HTTPResponse, of what: String) throws {
        guard !response.isSuccess else { return }
        let (code, description) = oauthError(in: response)
        throw OAuthError.requestFailed(what, status: response.status, serverError: code, description: description)
    }
}
