public import DPoPRequestExecutor
public import OAuthSessionManager

/// Where an ``ATClient`` gets the account's session and DPoP key, and a refreshed session after `invalid_token`.
public protocol XRPCSessionSource: Sendable {
    /// The current session (refreshed when due) and its key.
    func currentSession() async throws -> (session: OAuthSession, key: DPoPKey)
    /// A session whose access token is not `rejectedAccessToken`: refreshed unless another caller already did.
    func refreshedSession(replacing rejectedAccessToken: String) async throws -> (session: OAuthSession, key: DPoPKey)
}

/// The session of one account, from an ``OAuthSessionManager``.
public struct AccountSessionSource: XRPCSessionSource {
    /// The session manager.
    public let manager: OAuthSessionManager
    /// The account.
    public let did: DID

    /// Creates a source for one account.
    public init(manager: OAuthSessionManager, did: DID) {
        self.manager = manager
        self.did = did
    }

    /// The current session and key.
    public func currentSession() async throws -> (session: OAuthSession, key: DPoPKey) {
        let session = try await manager.session(for: did)
        return (session, try await manager.dpopKey(for: did))
    }

    /// Refreshes once, shared with every concurrent caller.
    public func refreshedSession(
        replacing rejectedAccessToken: String
    ) async throws -> (
        session: OAuthSession, key: DPoPKey
    ) {
        let session = try await manager.refresh(did: did, replacing: rejectedAccessToken)
        return (session, try await manager.dpopKey(for: did))
    }
}
