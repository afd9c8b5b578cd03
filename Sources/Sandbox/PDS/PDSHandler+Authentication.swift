import Foundation

/// The account and scope behind an authenticated resource request.
struct AuthenticatedCaller: Sendable {
    /// The account the token was issued for.
    var account: SandboxAccount
    /// The token's scope (atproto.com/specs/permission): an OAuth token's own, as granted when it was issued.
    var scope: String
    /// Whether the token is an app-password session's, which sees what an OAuth grant may not (the email).
    var isAppPassword = false
}

extension PDSHandler {
    /// Authenticates each request of the routes it wraps (``authenticate(_:)``).
    ///
    /// The handler reads the caller as ``SandboxContext/caller``. When `optional`, a request without an
    /// `Authorization` header goes on unauthenticated.
    func authentication(optional: Bool = false) -> CheckMiddleware {
        CheckMiddleware(onlyWith: optional ? "authorization" : nil) { context in
            context.caller = try await authenticate(context.request)
        }
    }

    /// Checks `Authorization: DPoP <token>` and the `DPoP` proof (RFC 9449 §7): the proof with `ath`, the nonce,
    /// the `jti`, then the token and its `cnf.jkt`.
    ///
    /// A legacy app-password JWT goes to ``authenticateLegacy(_:scheme:_:)`` instead, and one not signed here is
    /// `400 InvalidToken`; an OAuth token sent as `Bearer` is refused.
    func authenticate(_ request: SandboxRequest) async throws(SandboxRejection) -> AuthenticatedCaller {
        let authorizations = request.headerValues("authorization")
        guard let authorization = authorizations.first else {
            throw unauthorized(
                .authorizationMissing,
                error: nil,
                xrpcError: "AuthMissing",
                "no Authorization header: send Authorization: DPoP <access token>"
            )
        }
        guard authorizations.count == 1 else {
            throw unauthorized(.invalidRequest, error: "invalid_request", "more than one Authorization header")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        let scheme = parts.first.map { $0.lowercased() } ?? ""
        if parts.count == 2, let claims = core.legacyJWT.verify(String(parts[1])) {
            return try await authenticateLegacy(request, scheme: scheme, claims)
        }
        if scheme == "bearer", parts.count == 2,
            parts[1].split(separator: ".", omittingEmptySubsequences: false).count == 3
        {
            // A JWT not signed here, such as an app-password session's from before the sandbox restarted: the
            // reference PDS's answer, which sends a client to refresh.
            throw reject(.invalidToken, 400, "InvalidToken", "Token could not be verified")
        }
        guard scheme != "bearer" else {
            throw unauthorized(
                .bearerScheme,
                error: "invalid_request",
                "the Bearer scheme is refused: DPoP-bound tokens must be sent as Authorization: DPoP <token>"
            )
        }
        guard scheme == "dpop", parts.count == 2, !parts[1].isEmpty else {
            throw unauthorized(
                .invalidRequest,
                error: "invalid_request",
                "the Authorization header must be DPoP <access token>"
            )
        }
        let accessToken = String(parts[1])
        let now = core.now()
        let proof: VerifiedDPoPProof
        do {
            proof = try gate.check(request, accessToken: accessToken, settings: core.configuration, now: now)
        } catch {
            if error.isNonceChallenge { core.monitor.count { $0.nonceChallengesSent += 1 } }
            throw unauthorized(error.reason, error: error.code, error.explanation)
        }
        let token: AccessTokenRecord
        do {
            token = try await core.authorizations.accessToken(accessToken, now: now)
        } catch .expired {
            throw invalidToken(
                .expiredToken,
                xrpcError: "ExpiredToken",
                "the access token \(SandboxMonitor.redact(accessToken)) has expired: refresh it"
            )
        } catch {
            throw invalidToken(
                .invalidToken,
                "the access token \(SandboxMonitor.redact(accessToken)) is unknown or revoked"
            )
        }
        guard proof.thumbprint == token.dpopKeyThumbprint else {
            throw invalidToken(.dpopKeyMismatch, "the DPoP proof's key is not the key the token is bound to (cnf.jkt)")
        }
        guard let account = core.configuration.account(for: token.subject) else {
            throw invalidToken(.invalidToken, "the token's account no longer exists")
        }
        return AuthenticatedCaller(account: account, scope: token.scope)
    }

    /// A `401` with a `WWW-Authenticate: DPoP` challenge (RFC 9449 §7.1).
    private func unauthorized(
        _ reason: SandboxRejectionReason,
        error: String?,
        xrpcError: String? = nil,
        _ explanation: String
    ) -> SandboxRejection {
        var rejection = reject(reason, 401, xrpcError ?? error ?? "AuthMissing", explanation)
        rejection.answer.setHeader("WWW-Authenticate", Self.challenge(error: error, description: explanation))
        return rejection
    }

    /// An `invalid_token` refusal (RFC 6750 §3.1), `InvalidToken` unless another XRPC error is given.
    private func invalidToken(
        _ reason: SandboxRejectionReason,
        xrpcError: String = "InvalidToken",
        _ explanation: String
    ) -> SandboxRejection {
        unauthorized(reason, error: "invalid_token", xrpcError: xrpcError, explanation)
    }

    /// A `DPoP` challenge: `DPoP algs="ES256"`, with `error` and `error_description` when given.
    static func challenge(error: String?, description: String) -> String {
        guard let error else { return #"DPoP algs="ES256""# }
        // A quoted-string of printable ASCII (RFC 9110 §5.6.4): other characters become "?", quotes are escaped.
        let ascii = String(description.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" })
        let quoted = ascii.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #"DPoP algs="ES256", error="\#(error)", error_description="\#(quoted)""#
    }
}
