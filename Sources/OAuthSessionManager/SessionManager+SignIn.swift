import ATProtoIdentity
import ATProtoSyntax
import DPoPRequestExecutor
package import Foundation
import HTTPTransport
import Keystore
import Logging
package import OAuthMetadata
import Synchronization
import WireFormat

extension SessionManager {
    /// Starts a sign-in: resolves the account, checks its servers' metadata, sends the PAR, and keeps what the
    /// callback needs for ten minutes (atproto.com/specs/oauth, Identity Authentication).
    ///
    /// - Parameters:
    ///   - input: a handle, a DID, or a PDS or entryway `https://` URL.
    ///   - client: the client identity and redirect URI to use.
    ///   - prompt: what the authorization server is asked to show; `create` signs up, from a server URL.
    ///   - progress: told of each step as it starts.
    /// - Returns: the URL to open in the system browser.
    /// - Throws: ``SessionError`` naming the failed resolution, metadata check or PAR answer, or a prompt the server
    ///   does not list.
    package func startSignIn(
        _ input: String,
        client: OAuthClient,
        prompt: SignInPrompt? = nil,
        progress: @Sendable (SignInStep) -> Void = { _ in }
    ) async throws -> AuthorizationRequest {
        try? await store.purgeExpiredPending(now: now())
        progress(.resolvingAccount(input))
        let identity = try await identityResolver.resolve(input)
        progress(.checkingServers(pds: identity.pds))
        let server = try await SessionError.carrying { try await metadataResolver.resolve(pds: identity.pds) }
        let metadata = server.authorizationServer
        if let prompt {
            // Sign-up must be offered explicitly; the other values are OpenID Connect's own and pass unless the
            // server lists its values without them.
            let listed = metadata.promptValuesSupported
            guard listed?.contains(prompt.rawValue) ?? (prompt != .create) else {
                throw SessionError.promptNotSupported(prompt, issuer: metadata.issuer)
            }
            if prompt == .create, identity.did != nil {
                throw SessionError.invalidInput(
                    "Signing up starts from a server (its https:// address), since the account does not exist yet; "
                        + "\(input) names an account."
                )
            }
        }
        progress(.sendingRequest(authorizationServer: metadata.issuer))

        var clientKeyID: String?
        if case .privateKeyJWT(let keyID) = client.authentication {
            guard metadata.tokenEndpointAuthMethodsSupported.contains("private_key_jwt") else {
                throw SessionError.invalidAuthorizationServerMetadata(
                    "“token_endpoint_auth_methods_supported” does not include private_key_jwt, so a confidential "
                        + "client cannot sign in there (\(MetadataCheck.clientAuthentication.rule))",
                    field: "token_endpoint_auth_methods_supported"
                )
            }
            clientKeyID = keyID
        }
        let authenticator = try await authenticator(
            keyID: clientKeyID,
            clientID: client.clientID,
            issuer: metadata.issuer
        )
        let pkce = PKCE.generate(using: random)
        let state = OAuthState.generate(using: random)
        let key = DPoPKey()
        var request = PushedAuthorizationRequest(client: client, codeChallenge: pkce.challenge, state: state)
        request.loginHint = identity.handle?.description ?? identity.did?.rawValue
        request.prompt = prompt
        // A nonce in any answer counts, the `use_dpop_nonce` challenge's too: the final one need not repeat it.
        let nonceIssued = Mutex(false)
        let response = try await request.send(
            to: metadata.pushedAuthorizationRequestEndpoint,
            key: key,
            through: poster,
            client: authenticator
        ) { attempt in
            if attempt.response.headers["DPoP-Nonce"] != nil { nonceIssued.withLock { $0 = true } }
        }
        let requestURI = try PushedAuthorizationRequest.requireAccepted(response).requestURI

        try await store.savePending(
            PendingAuthorization(
                state: state,
                codeVerifier: pkce.verifier,
                dpopKey: key.persistedRepresentation,
                issuer: metadata.issuer,
                expectedDID: identity.did?.rawValue,
                clientID: client.clientID,
                redirectURI: client.redirectURI.absoluteString,
                scope: client.scope,
                tokenEndpoint: metadata.tokenEndpoint,
                revocationEndpoint: metadata.revocationEndpoint,
                createdAt: now(),
                serverIssuedNonce: nonceIssued.withLock { $0 },
                clientKeyID: clientKeyID
            )
        )
        var components = URLComponents(url: metadata.authorizationEndpoint, resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = FormEncoding.encode([
            ("client_id", client.clientID), ("request_uri", requestURI),
        ])
        guard let url = components?.url else {
            throw SessionError.invalidTokenResponse("the authorization endpoint cannot take a query")
        }
        logger.info("sign-in started for \(input) at \(metadata.issuer)")
        return AuthorizationRequest(
            url: url,
            state: state,
            issuer: metadata.issuer,
            expectedDID: identity.did?.rawValue,
            redirectURI: client.redirectURI
        )
    }

    /// Adds the key a successful sign-in signed with to the store's key set, when it was a sign-in's own key
    /// (``hostedClient(clientID:redirectURI:scope:clientKeyID:signInKey:)``) that the set lacks: beside the other
    /// keys, which keep their states (current only in an empty set).
    private func keepSignInKey(_ keyID: String?) async throws {
        guard let keyID, let key = signInKeys[keyID] else { return }
        try await SessionError.carrying {
            if try await clientKeySet.key(keyID) == nil {
                _ = try await clientKeySet.addBeside(key, now: now())
            }
        }
        signInKeys[keyID] = nil
    }

    /// Forgets a started sign-in (after a cancel or timeout), so its `state` can never complete.
    package func cancelSignIn(state: String) async throws {
        _ = try await store.consumePending(state: state)
    }

    /// Completes a sign-in from the callback URL: checks `state`, `iss`, `error` and `code`, exchanges the code,
    /// checks the tokens, re-resolves `sub` to confirm the issuer, and stores the session (RFC 6749 §4.1.2, RFC 9207 §2).
    ///
    /// If any check fails after tokens were issued, they are revoked before the error is thrown; nothing is stored
    /// for a failed sign-in, and the `state` cannot be used again either way.
    ///
    /// A new sign-in to an account that already has a session replaces it: once the new session and its DPoP key
    /// are stored (the key under the same entry, so the old one is gone), the old grant's refresh and access tokens
    /// are revoked at the authorization server that issued them, best effort (RFC 7009 §2), so no forgotten grant
    /// stays usable (atproto.com/specs/oauth, Tokens and Session Lifetime).
    ///
    /// - Returns: the new session, and the old grant's revocation when there was an old session.
    package func completeSignIn(callbackURL: URL) async throws -> SignInCompletion {
        let parameters = try CallbackParameters(callbackURL: callbackURL)
        guard let state = parameters.state, !state.isEmpty else {
            throw SessionError.invalidCallback("the callback has no state")
        }
        guard let pending = try await store.consumePending(state: state) else { throw SessionError.unknownState }
        guard !pending.isExpired(now: now()) else { throw SessionError.authorizationExpired }
        guard let registered = URL(string: pending.redirectURI),
            CallbackParameters.arrived(callbackURL, at: registered)
        else {
            var arrivedAt = URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)
            arrivedAt?.query = nil
            arrivedAt?.fragment = nil
            let shown = TerminalText.sanitized(arrivedAt?.string ?? "another address", limit: 200)
            throw SessionError.invalidCallback(
                "it arrived at \(shown), not at \(pending.redirectURI), where the sign-in said its redirect goes"
            )
        }
        let code = try parameters.validatedCode(expectedIssuer: pending.issuer)
        let key = try DPoPKey(persistedRepresentation: pending.dpopKey)
        let client = try await authenticator(
            keyID: pending.clientKeyID,
            clientID: pending.clientID,
            issuer: pending.issuer
        )

        let response = try await postForm(
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", pending.redirectURI),
                ("code_verifier", pending.codeVerifier), ("client_id", pending.clientID),
            ],
            to: pending.tokenEndpoint,
            key: key,
            purpose: "token request",
            client: client
        )
        try Self.requireSuccess(response, of: "the token request")
        let session: Session
        let replaced: SessionStore.Replaced?
        do {
            // The AT Protocol profile makes server-issued DPoP nonces mandatory for authorization servers
            // (atproto.com/specs/oauth, DPoP); one that never sent any is not a conforming server.
            guard pending.serverIssuedNonce == true || response.headers["DPoP-Nonce"] != nil else {
                throw SessionError.dpopFailed(
                    "the authorization server \(pending.issuer) never issued a DPoP nonce, which the AT Protocol "
                        + "OAuth profile requires; the tokens were not used"
                )
            }
            session = try await checkedSession(response.body, pending: pending)
            try await keepSignInKey(pending.clientKeyID)
            replaced = try await store.keystore.withLock(Session.entryName(did: session.did)) {
                try await store.replace(with: session, key: key)
            }
        } catch {
            await revokeTokens(
                in: response.body,
                endpoint: pending.revocationEndpoint,
                clientID: pending.clientID,
                key: key,
                client: client,
                what: "a failed sign-in"
            )
            throw error
        }
        broadcaster.publish(.updated(did: session.did))
        logger.info("signed in as \(session.did)")
        return SignInCompletion(session: session, previousGrant: await revokeReplaced(replaced))
    }

    private func checkedSession(_ body: Data, pending: PendingAuthorization) async throws -> Session {
        let tokens = try TokenResponse.checked(body)
        let sub = try DID(validating: tokens.sub ?? "")
        if let expected = pending.expectedDID, expected != sub.rawValue {
            throw SessionError.subjectMismatch("the tokens are for \(sub), but sign-in started for \(expected)")
        }
        let identity = try await identityResolver.resolve(did: sub, cachePolicy: .reload)
        let server = try await SessionError.carrying { try await metadataResolver.resolve(pds: identity.pds) }
        guard server.issuer == pending.issuer else {
            throw SessionError.issuerNotConfirmed(
                "\(sub) is served by \(server.issuer), not by \(pending.issuer) which issued the tokens"
            )
        }
        let issuedAt = now()
        return Session(
            did: sub,
            handle: identity.handle,
            pds: identity.pds,
            scope: tokens.scope ?? pending.scope,
            requestedScope: pending.scope,
            accessToken: tokens.accessToken,
            accessTokenExpiresAt: tokens.lifetime.map { issuedAt.addingTimeInterval($0) },
            refreshToken: tokens.refreshToken,
            refreshTokenExpiresAt: tokens.refreshTokenLifetime.map { issuedAt.addingTimeInterval($0) },
            createdAt: issuedAt,
            updatedAt: issuedAt,
            credential: .oauth(
                OAuthGrant(
                    issuer: pending.issuer,
                    clientID: pending.clientID,
                    tokenEndpoint: pending.tokenEndpoint,
                    revocationEndpoint: server.authorizationServer.revocationEndpoint ?? pending.revocationEndpoint,
                    clientKeyID: pending.clientKeyID
                )
            ),
            identityServices: identityServices
        )
    }
}
