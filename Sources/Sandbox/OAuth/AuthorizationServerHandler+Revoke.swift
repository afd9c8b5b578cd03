extension AuthorizationServerHandler {
    /// `POST /oauth/revoke` (RFC 7009 §2): deletes the session of a refresh or access token.
    ///
    /// Answers `200` also for an unknown token. A DPoP proof is optional (``AuthorizationServerHandler/dpopProofCheck(optional:)`` checks one sent). A
    /// request that names its client (`client_id`, or a client assertion's `sub`) is authenticated as that client: a
    /// confidential client's tokens are revoked only with its client assertion (RFC 7009 §2.1; RFC 7523 §3).
    func revoke(_ request: SandboxRequest) async throws(SandboxRejection) -> SandboxResponse {
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
        let clientID = requestClientID(form)
        var isAuthenticated = false
        if clientID != nil {
            let client = try await resolveClient(clientID)
            isAuthenticated = try await authenticateClient(form: form, client: client) != nil
        }
        let sessionID: String?
        do {
            sessionID = try await core.authorizations.revoke(
                token: token,
                clientID: clientID,
                isAuthenticated: isAuthenticated
            )
        } catch .unauthenticated {
            throw refuseClient(
                .clientAssertionMissing,
                "the token was issued to a confidential client: revoking it takes that client's client_id and "
                    + "client_assertion"
            )
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
        return SandboxResponse(status: 200, headers: [("Cache-Control", "no-store")])
    }
}
