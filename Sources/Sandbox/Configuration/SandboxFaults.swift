public import Foundation

/// Faults the sandbox injects on purpose, so clients can be tested against a misbehaving server.
public struct SandboxFaults: Sendable, Hashable {
    /// How many times a fault still fires.
    public enum Repetition: Sendable, Hashable {
        /// The fault is off.
        case off
        /// The fault fires for the next `count` matching requests, then turns itself off.
        case times(Int)
        /// The fault fires until it is turned off.
        case always
    }

    /// Whether the token endpoint answers `500 server_error` to `refresh_token` grants, before looking at the
    /// request, so the refresh token stays valid (a transient failure the client must survive).
    public var refreshServerError: Repetition
    /// A delay before every answer of every origin, or `nil` for none.
    public var slowResponses: TimeInterval?
    /// Whether each DPoP endpoint rotates its nonce on every response, so a nonce from two responses ago is stale.
    public var newNonceOnEveryResponse: Bool
    /// Whether the authorization server's metadata gives as `issuer` its origin with `localhost` in place of
    /// `127.0.0.1`, which differs from the issuer the PDS's protected resource metadata names.
    ///
    /// A client must refuse such metadata (RFC 8414 §3.3). Nothing else changes.
    public var issuerMismatch: Bool
    /// Whether the authorization server says `authorization_response_iss_parameter_supported: false` and its
    /// redirects, success and error, carry no `iss` parameter (RFC 9207), which atproto.com/specs/oauth requires.
    public var noIssParameter: Bool
    /// Whether every DID document lists `at://other-<handle>` in `alsoKnownAs`, a handle nothing resolves, so the
    /// handle resolves to the DID but the DID does not name the handle back (atproto.com/specs/handle).
    public var didDocumentNamesOtherHandle: Bool
    /// Whether the PDS's protected resource metadata names the PLC directory's origin as its authorization server:
    /// an origin that serves no authorization server metadata (404).
    public var prmNamesOtherServer: Bool
    /// Permission scope tokens the authorization server refuses at the PAR with `400 invalid_scope`, compared in
    /// canonical form (`repo:x` is `repo?collection=x`), unlike ``SandboxConfiguration/withheldPermissions``,
    /// which are granted less without an error.
    public var refusedScopes: [String]
    /// Whether no origin issues a `DPoP-Nonce` or demands a nonce (`use_dpop_nonce`), so proofs without one are
    /// accepted: a non-conforming server, as atproto.com/specs/oauth (DPoP) makes server-issued nonces mandatory.
    public var noDPoPNonces: Bool
    /// How many seconds the three origins' clocks run ahead (negative: behind), at most a day either way; `0` is off.
    ///
    /// The skewed clock writes the `Date` header of every answer, checks DPoP proofs' `iat`, and stamps and expires
    /// tokens.
    public var clockSkew: TimeInterval

    /// Creates a fault set; by default nothing misbehaves.
    public init(
        refreshServerError: Repetition = .off,
        slowResponses: TimeInterval? = nil,
        newNonceOnEveryResponse: Bool = false,
        issuerMismatch: Bool = false,
        noIssParameter: Bool = false,
        didDocumentNamesOtherHandle: Bool = false,
        prmNamesOtherServer: Bool = false,
        refusedScopes: [String] = [],
        noDPoPNonces: Bool = false,
        clockSkew: TimeInterval = 0
    ) {
        self.refreshServerError = refreshServerError
        self.slowResponses = slowResponses
        self.newNonceOnEveryResponse = newNonceOnEveryResponse
        self.issuerMismatch = issuerMismatch
        self.noIssParameter = noIssParameter
        self.didDocumentNamesOtherHandle = didDocumentNamesOtherHandle
        self.prmNamesOtherServer = prmNamesOtherServer
        self.refusedScopes = refusedScopes
        self.noDPoPNonces = noDPoPNonces
        self.clockSkew = clockSkew
    }

    /// No faults.
    public static let none = SandboxFaults()
}

extension SandboxFaults.Repetition {
    /// Uses one firing: whether the fault fires now; `.times` counts down to `.off`.
    mutating func fire() -> Bool {
        switch self {
        case .off:
            return false
        case .always:
            return true
        case .times(let count):
            guard count > 0 else {
                self = .off
                return false
            }
            self = count > 1 ? .times(count - 1) : .off
            return true
        }
    }
}
