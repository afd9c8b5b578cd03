import Foundation

/// A confidential client's proof of itself: the key its assertion was signed with, and its keys as they are now.
struct ClientProof: Sendable {
    /// The key that signed the assertion, which the code exchange binds the session to.
    var key: ClientKeyBinding
    /// The client's current JWKS (cached or fetched), in which a session's key must still be.
    var keys: ClientKeySet
}

/// A confidential client's assertion as sent, not yet verified, with the client's current keys.
struct PresentedAssertion: Sendable {
    /// The `client_assertion` parameter.
    var assertion: String
    /// The client's current JWKS (cached or fetched).
    var keys: ClientKeySet
}

extension AuthorizationServerHandler {
    /// Resolves a `client_id`, or answers `invalid_client`: a configured document, the loopback client, or a document
    /// fetched from an `http` loopback URL (``ClientDocumentCache``).
    func resolveClient(_ clientID: String?) async throws(SandboxRejection) -> ClientRegistration {
        guard let clientID else { throw reject(.invalidRequest, "client_id is required") }
        let documents = core.configuration.clientMetadataDocuments
        do throws(ClientResolver.Refusal) {
            guard ClientResolver.isLoopbackIP(clientID), documents[clientID] == nil else {
                return try ClientResolver.resolve(clientID, documents: documents)
            }
            return try await core.clientDocuments.document(
                at: clientID,
                what: "the client metadata",
                now: core.now()
            ) { (document: Data) throws(ClientResolver.Refusal) -> ClientRegistration in
                try HostedClientMetadata.registration(clientID: clientID, document: document)
            }
        } catch {
            throw reject(.invalidClient, error.reason, error: "invalid_client")
        }
    }

    /// Authenticates the request's client (RFC 6749 §2.3; RFC 7521 §4.2; RFC 7523 §3; atproto.com/specs/oauth,
    /// Client Authentication): ``presentedAssertion(form:client:)``, then ``verifyAssertion(_:client:)``.
    ///
    /// - Returns: the proof of a confidential client, or `nil` for a public one.
    func authenticateClient(
        form: [String: String],
        client: ClientRegistration
    ) async throws(SandboxRejection) -> ClientProof? {
        guard let presented = try await presentedAssertion(form: form, client: client) else { return nil }
        return try verifyAssertion(presented, client: client)
    }

    /// The first half of client authentication: the assertion's presence, and the client's keys.
    ///
    /// A public client must send no assertion; a confidential client must send `client_assertion_type`
    /// `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and a `client_assertion`, and its current keys are
    /// looked up. Every refusal is `400 invalid_client`, counted in ``SandboxCounters/clientAssertionsRefused`` and
    /// logged with its reason.
    ///
    /// - Returns: the assertion with the client's keys, not yet verified; `nil` for a public client.
    func presentedAssertion(
        form: [String: String],
        client: ClientRegistration
    ) async throws(SandboxRejection) -> PresentedAssertion? {
        let assertionType = form["client_assertion_type"]
        guard case .privateKeyJWT(let source) = client.authentication else {
            guard assertionType == nil, form["client_assertion"] == nil else {
                throw refuseClient(
                    .clientAssertionInvalid,
                    "\(client.clientID) is a public client (token_endpoint_auth_method none): it must not send "
                        + "client_assertion or client_assertion_type"
                )
            }
            return nil
        }
        guard let assertion = form["client_assertion"], !assertion.isEmpty else {
            throw refuseClient(
                .clientAssertionMissing,
                "\(client.clientID) is a confidential client (private_key_jwt): client_assertion is required"
            )
        }
        guard assertionType == ClientAssertionVerifier.assertionType else {
            throw refuseClient(
                .clientAssertionMissing,
                "client_assertion_type must be \(ClientAssertionVerifier.assertionType), not "
                    + (assertionType ?? "missing")
            )
        }
        let keys = try await clientKeys(client: client, source: source)
        return PresentedAssertion(assertion: assertion, keys: keys)
    }

    /// The second half of client authentication: the assertion must pass ``ClientAssertionVerifier`` against the
    /// client's keys, with a `jti` never seen before (remembered until the assertion's `exp`); else `400
    /// invalid_client`, counted and logged.
    ///
    /// - Returns: the key that signed it, and the client's keys.
    func verifyAssertion(
        _ presented: PresentedAssertion,
        client: ClientRegistration
    ) throws(SandboxRejection) -> ClientProof {
        let now = core.now()
        let verified: ClientAssertionVerifier.Verified
        do {
            verified = try ClientAssertionVerifier().verify(
                presented.assertion,
                clientID: client.clientID,
                issuer: issuer,
                keys: presented.keys,
                now: now
            )
        } catch {
            throw refuseClient(.clientAssertionInvalid, "client_assertion \(error.reason)")
        }
        let lifetime = max(1, verified.expiresAt.timeIntervalSince(now))
        guard core.clientAssertionReplays.insert(verified.jti, now: now, lifetime: lifetime) else {
            throw refuseClient(
                .clientAssertionReplay,
                "client_assertion jti was already used; every request needs a new assertion"
            )
        }
        core.monitor.count { $0.clientAssertionsAccepted += 1 }
        return ClientProof(key: verified.key, keys: presented.keys)
    }

    /// A confidential client's current keys: its inline `jwks`, or the JWK Set at its `jwks_uri` (configured under
    /// that URL, or fetched from a loopback address and cached); otherwise `invalid_client`.
    private func clientKeys(
        client: ClientRegistration,
        source: ClientKeySource
    ) async throws(SandboxRejection) -> ClientKeySet {
        let uri: String
        switch source {
        case .inline(let keys):
            return keys
        case .uri(let address):
            uri = address
        }
        do throws(ClientResolver.Refusal) {
            if let configured = core.configuration.clientMetadataDocuments[uri] {
                return try ClientKeySet(document: configured, source: uri)
            }
            guard ClientResolver.isLoopbackIP(uri) else {
                throw ClientResolver.Refusal(
                    reason: "the jwks_uri \(uri) of \(client.clientID) is not configured in clientMetadataDocuments, "
                        + "and the sandbox fetches only http loopback addresses"
                )
            }
            return try await core.clientDocuments.document(
                at: uri,
                what: "the JWKS",
                now: core.now()
            ) { (document: Data) throws(ClientResolver.Refusal) -> ClientKeySet in
                try ClientKeySet(document: document, source: uri)
            }
        } catch {
            throw refuseClient(.clientAssertionInvalid, "the client's keys: \(error.reason)")
        }
    }

    /// Counts a refused client authentication and makes its `400 invalid_client` answer.
    func refuseClient(_ reason: SandboxRejectionReason, _ explanation: String) -> SandboxRejection {
        core.monitor.count { $0.clientAssertionsRefused += 1 }
        return reject(reason, explanation, error: "invalid_client")
    }
}
