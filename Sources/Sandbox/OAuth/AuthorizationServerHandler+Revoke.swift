extension AuthorizationServerHandler {
    /// `POST /oauth/revoke` (RFC 7009 §2): deletes the session of a refresh or access token.
    ///
    /// Answers `200` also for an unknown token. Like the reference server, it takes the client's credentials and a DPoP
    /// proof, as every AT Protocol client's are DPoP-bound: where that server answers `200` and revokes nothing, this
    /// one refuses, so a client that signs out without them learns it. A confidential client's tokens are revoked
    /// only with its client assertion (RFC 7009 §2.1; RFC 7523 §3), and every token only with a proof of the DPoP key
    /// it is bound to (RFC 9449 §5): someone holding a stolen token without its key cannot end the session.
    func revoke(_ request: SandboxRequest, proof: VerifiedDPoPProof) async throws(SandboxRejection) -> SandboxResponse {
        let form = try formParameters(request)
        guard let token = form["token"], !token.isEmpty else {
            throw reject(.invalidRequest, "token is required")
        }
        if let hint = form["token_type_hint"], hint != "access_token", hint != "refresh_token" {
            throw reject(
                .invalidRequest,
                "token_type_hint must be access_token or refresh_token",
                error: "unsupported_token_type"
            )
        }
        let client = try await resolveClient(form["client_id"])
        let clientID = client.clientID
        let isAuthenticated = try await authenticateClient(form: form, client: client) != nil
        let sessionID: String?
        do {
            sessionID = try await core.authorizations.revoke(
                token: token,
                clientID: clientID,
                dpopKeyThumbprint: proof.thumbprint,
                isAuthenticated: isAuthenticated
            )
        } catch .unauthenticated {
            throw refuseClient(
                .clientAssertionMissing,
                "the token was issued to a confidential client: revoking it takes that client's client_id and "
                    + "client_assertion"
            )
        } catch .dpopKeyMismatch {
            throw invalidGrant(.dpopKeyMismatch, "the DPoP proof's key is not the one the token is bound to")
        } catch {
            throw reject(
                .invalidClient,
                "client_id differs from the client the token was issued to",
                error: "invalid_client"
            )
        }
        if let sessionID {
            core.monitor.count { $0.revocations += 1 }
            core.monitor.note(request, "revoked session \(SandboxMonitor.redact(sessionID))")
        } else {
            core.monitor.note(request, "token \(SandboxMonitor.redact(token)) is unknown; nothing to revoke")
        }
        return .json(200, [:])  // `{}`, as the reference server answers.
    }
}
