/// Why the sandbox refused a request; an open set, so new checks never break callers.
public struct SandboxRejectionReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// A short stable name, such as `dpop_htu`.
    public var rawValue: String

    /// Creates a reason from its name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The name.
    public var description: String { rawValue }

    /// No `DPoP` header, or more than one (RFC 9449 §4.3).
    public static let dpopProofMissing = Self(rawValue: "dpop_missing")
    /// The proof is malformed or its header or signature is wrong.
    public static let dpopProofInvalid = Self(rawValue: "dpop_invalid")
    /// The proof's `htm` is not the request method.
    public static let dpopMethodMismatch = Self(rawValue: "dpop_htm")
    /// The proof's `htu` is not the request URL.
    public static let dpopURLMismatch = Self(rawValue: "dpop_htu")
    /// The proof's `iat` is outside the accepted window.
    public static let dpopIssuedAtOutOfRange = Self(rawValue: "dpop_iat")
    /// The proof's `ath` does not hash the access token (or is missing, or present without one).
    public static let dpopAccessTokenHashMismatch = Self(rawValue: "dpop_ath")
    /// The proof has no nonce: answered with `use_dpop_nonce`.
    public static let dpopNonceMissing = Self(rawValue: "dpop_nonce_missing")
    /// The proof's nonce is not one of the accepted ones: answered with `use_dpop_nonce`.
    public static let dpopNonceStale = Self(rawValue: "dpop_nonce_stale")
    /// The proof's `jti` was seen before.
    public static let dpopReplay = Self(rawValue: "dpop_replay")
    /// The proof's key is not the one the token, code or session is bound to (`cnf.jkt`).
    public static let dpopKeyMismatch = Self(rawValue: "dpop_key_mismatch")
    /// No `Authorization` header on a resource request.
    public static let authorizationMissing = Self(rawValue: "authorization_missing")
    /// An `Authorization: Bearer` header for a DPoP-bound token.
    public static let bearerScheme = Self(rawValue: "bearer_scheme")
    /// The access token is unknown or revoked.
    public static let invalidToken = Self(rawValue: "invalid_token")
    /// The access token has expired.
    public static let expiredToken = Self(rawValue: "expired_token")
    /// The token's scope lacks the permission a PDS method needs; answered with `403 ScopeMissingError`
    /// (atproto.com/specs/permission).
    public static let scopeMissing = Self(rawValue: "scope_missing")
    /// The client id or its metadata is unacceptable.
    public static let invalidClient = Self(rawValue: "invalid_client")
    /// A confidential client sent no `client_assertion`, or not of the `jwt-bearer` type (RFC 7521 §4.2), or a
    /// confidential client's token was revoked without one.
    public static let clientAssertionMissing = Self(rawValue: "client_assertion_missing")
    /// The client assertion is malformed, names a `kid` not in the client's JWKS, does not verify, or has a wrong
    /// claim (RFC 7523 §3); or a public client sent one; or the client's JWKS could not be had.
    public static let clientAssertionInvalid = Self(rawValue: "client_assertion_invalid")
    /// The client assertion's `jti` was seen before.
    public static let clientAssertionReplay = Self(rawValue: "client_assertion_replay")
    /// A confidential client's refresh was signed with another key than the one its session is bound to.
    public static let clientKeyMismatch = Self(rawValue: "client_key_mismatch")
    /// The key a confidential client's session is bound to is no longer in its JWKS: the session was ended.
    public static let clientKeyRemoved = Self(rawValue: "client_key_removed")
    /// A redirect URI is not registered for the client, or differs from the PAR's.
    public static let redirectURIMismatch = Self(rawValue: "redirect_uri_mismatch")
    /// The scope is missing `atproto`, unsupported, or beyond the client's.
    public static let invalidScope = Self(rawValue: "invalid_scope")
    /// A parameter is missing, repeated or malformed.
    public static let invalidRequest = Self(rawValue: "invalid_request")
    /// The authorization endpoint was called without a pushed request (RFC 9126 §4).
    public static let parRequired = Self(rawValue: "par_required")
    /// The `request_uri` is unknown, used or expired.
    public static let invalidRequestURI = Self(rawValue: "invalid_request_uri")
    /// A request to the test-control endpoints (`/_sandbox/…`) that a web browser sent, or whose `Host` is not the
    /// sandbox's own loopback address.
    public static let controlNotLocal = Self(rawValue: "control_not_local")
    /// The consent form's CSRF token is wrong or used.
    public static let csrfMismatch = Self(rawValue: "csrf_mismatch")
    /// The PKCE verifier does not hash to the challenge (RFC 7636 §4.6).
    public static let pkceMismatch = Self(rawValue: "pkce_mismatch")
    /// The PKCE challenge was spent by an earlier code exchange.
    public static let codeChallengeReuse = Self(rawValue: "code_challenge_reuse")
    /// The authorization code is unknown or expired.
    public static let invalidCode = Self(rawValue: "invalid_code")
    /// The authorization code was used before; what it issued is revoked.
    public static let codeReuse = Self(rawValue: "code_reuse")
    /// The refresh token is unknown or the session expired.
    public static let invalidRefreshToken = Self(rawValue: "invalid_refresh_token")
    /// The refresh token was already used; the whole session is deleted.
    public static let refreshTokenReplay = Self(rawValue: "refresh_token_replay")
    /// The grant type is not `authorization_code` or `refresh_token`.
    public static let unsupportedGrantType = Self(rawValue: "unsupported_grant_type")
    /// An XRPC call's input is wrong (repo, collection, record key, body).
    public static let invalidXRPCInput = Self(rawValue: "invalid_xrpc_input")
    /// The path or method is not served.
    public static let notFound = Self(rawValue: "not_found")
    /// A legacy session JWT sent with a DPoP proof or as `Authorization: DPoP`: app-password sessions are Bearer
    /// only.
    public static let dpopWithLegacyToken = Self(rawValue: "dpop_legacy_token")
    /// `createSession` with an unknown account or a wrong app password.
    public static let invalidCredentials = Self(rawValue: "invalid_credentials")
    /// `createSession` for a two-factor account without its sign-in code (or with a wrong one).
    public static let authFactorRequired = Self(rawValue: "auth_factor_required")
    /// A fault was injected on purpose (``SandboxFaults``).
    public static let injectedFault = Self(rawValue: "injected_fault")
}
