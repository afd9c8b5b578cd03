import Foundation

/// The PDS's app-password sessions: one refresh JWT chain each, identified by the tokens' `jti`.
///
/// Refresh JWTs are single-use: presenting a used one deletes the whole session, as OAuth refresh tokens do
/// (atproto.com/specs/oauth, Tokens and Session Lifetime). Each method does one complete state change.
actor LegacySessionStore {
    /// Why a token was refused.
    enum Failure: Error, Sendable {
        /// The refresh JWT was used before: the session was deleted.
        case replayed
        /// The session is gone (deleted, replayed, or never existed).
        case revoked
    }

    private struct Session {
        var did: String
        var refreshID: String
        var accessIDs: Set<String> = []
        var usedRefreshIDs: Set<String> = []
    }

    private var sessions: [String: Session] = [:]
    private var refreshIndex: [String: String] = [:]
    private var usedRefreshIndex: [String: String] = [:]
    private var accessIndex: [String: String] = [:]

    /// Starts a session for `did` whose first tokens have the ids given.
    func create(did: String, sessionID: String, accessID: String, refreshID: String) {
        sessions[sessionID] = Session(did: did, refreshID: refreshID, accessIDs: [accessID])
        refreshIndex[refreshID] = sessionID
        accessIndex[accessID] = sessionID
    }

    /// Rotates the refresh JWT `refreshID`: it becomes used, and the new ids are the session's.
    func rotate(_ refreshID: String, newAccessID: String, newRefreshID: String) throws(Failure) {
        if let sessionID = usedRefreshIndex[refreshID] {
            delete(sessionID)
            throw .replayed
        }
        guard let sessionID = refreshIndex[refreshID], var session = sessions[sessionID] else { throw .revoked }
        refreshIndex[refreshID] = nil
        usedRefreshIndex[refreshID] = sessionID
        session.usedRefreshIDs.insert(refreshID)
        session.refreshID = newRefreshID
        session.accessIDs.insert(newAccessID)
        refreshIndex[newRefreshID] = sessionID
        accessIndex[newAccessID] = sessionID
        sessions[sessionID] = session
    }

    /// Ends the session of the current refresh JWT `refreshID`; a used one is a replay and ends it too.
    func end(_ refreshID: String) throws(Failure) {
        if let sessionID = usedRefreshIndex[refreshID] {
            delete(sessionID)
            throw .replayed
        }
        guard let sessionID = refreshIndex[refreshID] else { throw .revoked }
        delete(sessionID)
    }

    /// Throws ``Failure/revoked`` unless the access JWT `accessID` belongs to a live session.
    func checkAccess(_ accessID: String) throws(Failure) {
        guard let sessionID = accessIndex[accessID], sessions[sessionID] != nil else { throw .revoked }
    }

    private func delete(_ sessionID: String) {
        guard let session = sessions.removeValue(forKey: sessionID) else { return }
        refreshIndex[session.refreshID] = nil
        for id in session.usedRefreshIDs { usedRefreshIndex[id] = nil }
        for id in session.accessIDs { accessIndex[id] = nil }
    }
}
