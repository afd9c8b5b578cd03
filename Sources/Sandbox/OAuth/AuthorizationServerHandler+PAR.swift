import ATProtoPermissions
import Foundation
import WireFormat

extension AuthorizationServerHandler {
    /// `POST /oauth/par` (RFC 9126 §2): validates the whole request up front and answers a one-use `request_uri`.
    ///
    /// A confidential client authenticates here too, with a client assertion in the form (RFC 9126 §2.1).
    func pushedAuthorization(
        _ request: SandboxRequest,
        proof: VerifiedDPoPProof
    ) async throws(SandboxRejection) -> SandboxResponse {
        let form = try formParameters(request)
        let pushed = try await validatePushedRequest(form: form, proof: proof)
        await core.authorizations.push(pushed)
        core.monitor.note(
            request,
            "accepted the pushed request of \(pushed.clientID) for scope \"\(pushed.scope)\""
        )
        return .json(
            201,
            [
                "request_uri": pushed.requestURI,
                "expires_in": WholeSeconds.of(core.configuration.requestURILifetime),
            ]
        )
    }

    private func validatePushedRequest(
        form: [String: String],
        proof: VerifiedDPoPProof
    ) async throws(SandboxRejection) -> PushedAuthorization {
        // OpenID Connect's parameters, which the reference server refuses too: its `nonce` is redundant with PKCE.
        let unsupported = ["request", "request_uri", "claims", "id_token_hint", "nonce"]
        if let name = unsupported.first(where: { form[$0] != nil }) {
            throw reject(.invalidRequest, "the \(name) parameter is not supported in a PAR")
        }
        if form["authorization_details"] != nil {
            throw reject(
                .invalidRequest,
                "authorization_details are not supported: this server lists no authorization_details_types_supported",
                error: "invalid_authorization_details"
            )
        }
        let client = try await resolveClient(form["client_id"])
        let clientProof = try await authenticateClient(form: form, client: client)
        guard form["response_type"] == "code" else {
            throw reject(
                .invalidRequest,
                "response_type must be code, not \(form["response_type"] ?? "missing")",
                error: form["response_type"] == nil ? "invalid_request" : "unsupported_response_type"
            )
        }
        if let mode = form["response_mode"], mode != "query" {
            throw reject(.invalidRequest, "response_mode must be query, not \(mode)")
        }
        let redirectURI = try required(form, "redirect_uri")
        do {
            try ClientResolver.checkRedirectURI(redirectURI, for: client)
        } catch {
            throw reject(.redirectURIMismatch, error.reason)
        }
        guard form["code_challenge_method"] == "S256" else {
            throw reject(
                .invalidRequest,
                "code_challenge_method must be S256, not \(form["code_challenge_method"] ?? "missing")"
            )
        }
        guard let challenge = form["code_challenge"], challenge.utf8.count == 43, Base64URL.decode(challenge) != nil
        else {
            throw reject(.invalidRequest, "code_challenge must be 43 base64url characters (S256)")
        }
        guard let state = form["state"], !state.isEmpty, state.utf8.count <= 1024 else {
            throw reject(.invalidRequest, "state is required (1 to 1024 characters)")
        }
        let scope = try validateScope(form["scope"], client: client)
        if let prompt = form["prompt"], !SignUp.promptValues.contains(prompt) {
            throw reject(
                .invalidRequest,
                "prompt must be one of \(SignUp.promptValues.joined(separator: ", ")), not \(prompt)"
            )
        }
        if form["prompt"] == "create", form["login_hint"] != nil {
            throw reject(.invalidRequest, "prompt=create signs up a new account, so it takes no login_hint")
        }
        var loginHintDID: String?
        if let hint = form["login_hint"] {
            guard let account = core.configuration.account(for: hint) else {
                throw reject(.invalidRequest, "login_hint \(hint) is not an account of this sandbox")
            }
            loginHintDID = account.did
        }
        if let expected = form["dpop_jkt"], expected != proof.thumbprint {
            throw reject(.dpopKeyMismatch, "dpop_jkt does not match the DPoP proof's key", error: "invalid_dpop_proof")
        }
        return PushedAuthorization(
            requestURI: "urn:ietf:params:oauth:request_uri:req-" + core.randomToken(bytes: 16),
            clientID: client.clientID,
            redirectURI: redirectURI,
            state: state,
            scope: scope,
            codeChallenge: challenge,
            loginHintDID: loginHintDID,
            prompt: form["prompt"],
            dpopKeyThumbprint: proof.thumbprint,
            clientKey: clientProof?.key,
            expiresAt: core.now().addingTimeInterval(core.configuration.requestURILifetime),
            clientPresentation: client.presentation
        )
    }

    /// The scope must parse strictly (atproto.com/specs/permission), contain `atproto`, hold only tokens the client
    /// registered, spelled as it registered them (the reference server compares them as strings, so
    /// `repo:app.bsky.feed.post` is not `repo?collection=app.bsky.feed.post`), hold no token of the `refusedScopes`
    /// fault, and include only
    /// permission sets the sandbox publishes (an `include:` it cannot resolve is refused, as the reference server
    /// refuses one whose lexicon it cannot fetch); answers the canonical scope.
    private func validateScope(_ scope: String?, client: ClientRegistration) throws(SandboxRejection) -> String {
        guard let scope else { throw invalidScope("scope is required") }
        let requested: ScopeSet
        do {
            requested = try OAuthScope.parse(scope)
        } catch {
            throw invalidScope(error.reason)
        }
        if let undeclared = scope.split(separator: " ").first(where: { !client.scopes.contains(String($0)) }) {
            throw invalidScope("Scope \"\(undeclared)\" is not declared in the client metadata")
        }
        let settings = core.configuration
        if let refused = PermissionGrant.refused(in: requested, settings: settings) {
            throw invalidScope("the scope \(refused) is not accepted by this server")
        }
        if let unknown = PermissionGrant.unknownSets(in: requested, settings: settings).first {
            throw invalidScope(
                "include:\(unknown): the permission set \(unknown) could not be resolved (this server publishes no "
                    + "lexicon for it)"
            )
        }
        return requested.description
    }
}
