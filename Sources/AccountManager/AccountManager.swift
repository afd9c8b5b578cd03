public import DPoPRequestExecutor
import Foundation
public import Keystore
public import OAuthSessionManager

/// Several signed-in accounts and the active one, kept in the keystore (DID → session).
///
/// Each account is its own encrypted session entry, written atomically, and the active account is one small entry
/// written under the keystore's lock, so processes adding, switching and refreshing at the same time never corrupt
/// the registry or lose an account.
public struct AccountManager: Sendable {
    /// The session manager that signs in, refreshes and signs out.
    public let sessions: OAuthSessionManager
    private let keystore: any Keystore

    /// The keystore entry that names the active account's DID.
    static let activeEntry = "accounts/active"

    /// Creates a manager over the same keystore as `sessions`.
    public init(sessions: OAuthSessionManager, keystore: any Keystore) {
        self.sessions = sessions
        self.keystore = keystore
    }

    /// Every account, sorted by handle, with the active one marked.
    public func accounts() async throws -> [Account] {
        let active = try activeDIDUnlocked()
        return try await sessions.storedSessions()
            .map { Account(session: $0, active: $0.did == active) }
            .sorted { $0.displayName < $1.displayName }
    }

    /// Registers a signed-in session's account and makes it active.
    @discardableResult
    public func add(_ session: OAuthSession) async throws -> Account {
        try await setActive(session.did)
        return Account(session: session, active: true)
    }

    /// Finds an account by handle or DID; `nil` means the active account.
    ///
    /// - Throws: ``OAuthError`` of kind `signInNeeded` when there is no such account or none is active.
    public func account(_ handleOrDID: String?) async throws -> Account {
        let all = try await accounts()
        guard let handleOrDID else {
            guard let active = all.first(where: \.active) else {
                throw OAuthError.signInNeeded(
                    all.isEmpty ? "no account is signed in" : "no account is active; choose one with `accounts switch`"
                )
            }
            return active
        }
        let wanted = handleOrDID.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "@"))
        guard let match = all.first(where: { $0.did.rawValue == handleOrDID || $0.handle?.description == wanted })
        else { throw OAuthError.signInNeeded("no signed-in account is \(handleOrDID)") }
        return match
    }

    /// Makes an account active.
    @discardableResult
    public func switchTo(_ handleOrDID: String) async throws -> Account {
        var account = try await account(handleOrDID)
        try await setActive(account.did)
        account.active = true
        return account
    }

    /// Signs an account out: revokes its tokens (best effort), deletes its session and DPoP key, and clears the
    /// active account if it was this one.
    public func remove(_ handleOrDID: String) async throws -> (Account, OAuthSessionManager.RevocationResult) {
        let account = try await account(handleOrDID)
        let result = try await sessions.signOut(did: account.did)
        try await keystore.withLock(Self.activeEntry) {
            if try activeDIDUnlocked() == account.did { try keystore.delete(Self.activeEntry) }
        }
        return (account, result)
    }

    /// The current session of an account (refreshed when due) and its DPoP key.
    public func session(for account: Account) async throws -> (OAuthSession, DPoPKey) {
        let session = try await sessions.session(for: account.did)
        return (session, try await sessions.dpopKey(for: account.did))
    }

    private func setActive(_ did: DID) async throws {
        try await keystore.withLock(Self.activeEntry) {
            try keystore.save(Data(did.rawValue.utf8), as: Self.activeEntry)
        }
    }

    private func activeDIDUnlocked() throws -> DID? {
        guard let data = try keystore.load(Self.activeEntry) else { return nil }
        return try? DID(validating: String(decoding: data, as: UTF8.self))
    }
}
