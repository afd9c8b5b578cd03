import Foundation

/// The PDS's app-password sessions: one refresh JWT chain each, identified by the tokens' `jti`.
///
/// As on the reference PDS, a used refresh JWT may be presented again for ``reuseGrace`` after its first use: it is
/// answered with the same next refresh JWT id, so a client that lost the answer to a refresh keeps its session.
/// Presented again after that, it is a replay and deletes the whole session, as a reused OAuth refresh token does
/// (atproto.com/specs/oauth, Tokens and Session Lifetime). Each method does one complete state change.
actor LegacySessionStore {
    /// Why a token was refused.
    enum Failure: Error, Sendable {
        /// The refresh JWT was used before, longer ago than ``LegacySessionStore/reuseGrace``: the session was
        /// deleted.
        case replayed
        /// The session is gone (deleted, replayed, or never existed).
        case revoked
    }

    /// How long a used refresh JWT is answered again: two hours, as on the reference PDS.
    static let reuseGrace: TimeInterval = 2 * 60 * 60

    private struct Session {
        var did: String
        var refreshID: String
        var accessIDs: Set<String> = []
        var usedRefreshIDs: Set<String> = []
    }

    /// A refresh JWT id that was used: its session, the id that replaced it, and until when it is answered again.
    private struct UsedRefresh {
        var sessionID: String
        var nextRefreshID: String
        var reusableUntil: Date
    }

    private var sessions: [String: Session] = [:]
    private var refreshIndex: [String: String] = [:]
    private var usedRefreshIndex: [String: UsedRefresh] = [:]
    private var accessIndex: [String: String] = [:]

    /// Starts a session for `did` whose first tokens have the ids given.
    func create(did: String, sessionID: String, accessID: String, refreshID: String) {
        sessions[sessionID] = Session(did: did, refreshID: refreshID, accessIDs: [accessID])
        refreshIndex[refreshID] = sessionID
        accessIndex[accessID] = sessionID
    }

    /// Rotates the refresh JWT `refreshID` at `now`: it becomes used, and the new ids are the session's.
    ///
    /// - Returns: the id of the refresh JWT to issue: `newRefreshID`, or for a refresh JWT used less than
    ///   ``reuseGrace`` ago, the id that replaced it then.
    /// - Throws: ``Failure/replayed`` for one used longer ago, ``Failure/revoked`` for one whose session is gone.
    func rotate(_ refreshID: String, newAccessID: String, newRefreshID: String, now: Date) throws(Failure) -> String {
        if let used = usedRefreshIndex[refreshID] {
            let sessionID = try reusable(used, now: now)
            sessions[sessionID]?.accessIDs.insert(newAccessID)
            accessIndex[newAccessID] = sessionID
            return used.nextRefreshID
        }
        guard let sessionID = refreshIndex[refreshID], var session = sessions[sessionID] else { throw .revoked }
        refreshIndex[refreshID] = nil
        usedRefreshIndex[refreshID] = UsedRefresh(
            sessionID: sessionID,
            nextRefreshID: newRefreshID,
            reusableUntil: now.addingTimeInterval(Self.reuseGrace)
        )
        session.usedRefreshIDs.insert(refreshID)
        session.refreshID = newRefreshID
        session.accessIDs.insert(newAccessID)
        refreshIndex[newRefreshID] = sessionID
        accessIndex[newAccessID] = sessionID
        sessions[sessionID] = session
        return newRefreshID
    }

    /// Ends the session of the refresh JWT `refreshID`: the current one, or one used less than ``reuseGrace`` ago;
    /// one used longer ago is a replay and ends it too.
    ///
    /// - Returns: whether the JWT was a used one.
    func end(_ refreshID: String, now: Date) throws(Failure) -> Bool {
        if let used = usedRefreshIndex[refreshID] {
            delete(try reusable(used, now: now))
            return true
        }
        guard let sessionID = refreshIndex[refreshID] else { throw .revoked }
        delete(sessionID)
        return false
    }

    /// Throws ``Failure/revoked`` unless the access JWT `accessID` belongs to a live session.
    func checkAccess(_ accessID: String) throws(Failure) {
        guard let sessionID = accessIndex[accessID], sessions[sessionID] != nil else { throw .revoked }
    }

    /// The session of a used refresh JWT presented again: within its grace, when the session still exists;
    /// after it, a replay that deletes the session.
    private func reusable(_ used: UsedRefresh, now: Date) throws(Failure) -> String {
        guard now < used.reusableUntil else {
            delete(used.sessionID)
            throw .replayed
        }
        guard sessions[used.sessionID] != nil else { throw .revoked }
        return used.sessionID
    }

    private func delete(_ sessionID: String) {
        guard let session = sessions.removeValue(forKey: sessionID) else { return }
        refreshIndex[session.refreshID] = nil
        for id in session.usedRefreshIDs { usedRefreshIndex[id] = nil }
        for id in session.accessIDs { accessIndex[id] = nil }
    }
}
