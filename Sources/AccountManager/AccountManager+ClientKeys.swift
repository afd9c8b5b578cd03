public import Foundation
public import OAuthMetadata
import OAuthSessionManager

/// A key of the confidential client's key set and the sessions bound to it.
public struct ClientKeyStatus: Sendable, Hashable {
    /// The key's record: its `kid`, state and dates.
    public var record: ClientKeyRecord
    /// How many sessions signed in here are bound to it.
    public var sessions: Int
    /// Its public JWK, as the client metadata publishes it.
    public var publicJWK: [String: String]
}

extension AccountManager {
    /// Adds a signing key to the confidential client's key set, sealed in the store like every other secret.
    ///
    /// The first key of an empty set signs at once; any later key is `next` until `wait` seconds have passed (publish
    /// its JWKS meanwhile), then the next sign-in makes it current and the one before retiring. Sessions keep the key
    /// they were signed in with.
    public func addClientKey(
        _ key: ClientKey,
        publishedFor wait: TimeInterval = 600
    ) async throws -> ClientKeyRecord {
        try await sessions.clientKeySet.add(key, wait: wait, now: configuration.now())
    }

    /// Adds a key the client metadata already publishes, for the sign-ins that name it
    /// (``hostedClient(clientID:redirectURI:scope:clientKeyID:)``, which checks that it is published), without
    /// changing which key signs the other sign-ins.
    ///
    /// In an empty set it is current, as any first key; otherwise it is retiring, signing only for the sessions
    /// bound to it, and the other keys keep their states: a current key is replaced only by a `next` key whose
    /// publish wait has passed (``addClientKey(_:publishedFor:)``).
    public func addPublishedClientKey(_ key: ClientKey) async throws -> ClientKeyRecord {
        try await sessions.clientKeySet.addBeside(key, now: configuration.now())
    }

    /// The keys of the confidential client's key set, oldest first, with the sessions bound to each.
    public func clientKeys() async throws -> [ClientKeyStatus] {
        let set = sessions.clientKeySet
        var statuses: [ClientKeyStatus] = []
        for record in try await set.records(now: configuration.now()) {
            guard let key = try await set.key(record.keyID) else { continue }
            let bound = try await sessions.sessions(boundTo: record.keyID).count
            statuses.append(ClientKeyStatus(record: record, sessions: bound, publicJWK: key.publicJWK))
        }
        return statuses
    }

    /// Removes a key from the set; refused while sessions are bound to it unless `force`, which ends them.
    ///
    /// Each account whose session ended so keeps a record until it signs in again or is removed (``remove(_:)``):
    /// using it (``account(_:)``, ``restore(_:)``) throws ``AccountError`` saying that the key was removed and
    /// naming the client to sign in as again (category `signInNeeded`).
    ///
    /// - Returns: the accounts whose sessions ended.
    public func removeClientKey(_ keyID: String, force: Bool = false) async throws -> [Account] {
        let ended = try await sessions.removeClientKey(keyID, force: force)
        var accounts: [Account] = []
        for session in ended {
            connections[session.did] = nil
            accounts.append(Account(session: session, active: false))
        }
        directory.forget()
        return accounts
    }
}
