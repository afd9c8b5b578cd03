/// What the sandbox has counted since it started (or since ``SandboxServer/resetCounters()``), for tests.
public struct SandboxCounters: Sendable, Hashable {
    /// Authorization-code grants that issued tokens.
    public var authorizationCodeGrantsSucceeded = 0
    /// Refresh grants that rotated tokens.
    public var refreshGrantsSucceeded = 0
    /// Refresh tokens presented a second time (each deleted a session).
    public var refreshTokenReplays = 0
    /// `use_dpop_nonce` challenges sent, by the authorization server and the PDS together.
    public var nonceChallengesSent = 0
    /// Refresh grants answered with an injected server error.
    public var injectedRefreshFailures = 0
    /// Requests that reached the PDS's `/xrpc/` methods, answered or refused.
    public var xrpcRequestsReceived = 0
    /// Requests to the PDS's `/xrpc/` methods whose head arrived, counted before their body is read, so that a
    /// request whose body is still on its way already shows.
    public var xrpcRequestHeadsReceived = 0
    /// Sessions revoked through the revocation endpoint.
    public var revocations = 0
    /// App-password sessions created by `com.atproto.server.createSession`.
    public var legacySessionsCreated = 0
    /// App-password sessions refreshed by `com.atproto.server.refreshSession` (replays, presented after the reuse
    /// grace, are counted in ``refreshTokenReplays``).
    public var legacyRefreshesSucceeded = 0
    /// Used app-password refresh JWTs presented again within their reuse grace (two hours), each answered with the
    /// same next refresh JWT id; counted in ``legacyRefreshesSucceeded`` too.
    public var legacyRefreshTokenReuses = 0
    /// App-password sessions ended by `com.atproto.server.deleteSession`.
    public var legacySessionsDeleted = 0
    /// Of those, the ones ended with a used refresh JWT, within its grace.
    ///
    /// The reference PDS deletes only that JWT's record then, and the JWT that replaced it stays good; the sandbox
    /// ends the whole session.
    public var legacySessionsDeletedWithUsedJWT = 0
    /// Client assertions of confidential clients accepted (RFC 7523 §3), at the PAR, token and revocation endpoints.
    public var clientAssertionsAccepted = 0
    /// Requests refused for their client authentication: a confidential client's assertion missing or wrong, or a
    /// public client's present.
    public var clientAssertionsRefused = 0
    /// Confidential clients' sessions ended because the key they are bound to left the client's JWKS.
    public var sessionsEndedByKeyRemoval = 0
    /// Blobs answered by `com.atproto.sync.getBlob`, with or without authentication.
    public var blobsServed = 0
    /// Blobs `com.atproto.repo.uploadBlob` took and kept.
    public var blobsStored = 0
    /// Rejected requests, by reason.
    public var rejections: [SandboxRejectionReason: Int] = [:]

    /// Creates zeroed counters.
    public init() {}

    /// How many requests were rejected for this reason.
    public func rejections(_ reason: SandboxRejectionReason) -> Int {
        rejections[reason, default: 0]
    }

    /// How many requests were rejected, for any reason.
    public var totalRejections: Int { rejections.values.reduce(0, +) }
}
