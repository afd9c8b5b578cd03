import ATProtoSyntax
import Foundation
public import OAuthSessionManager

extension AccountManager {
    /// Every account, sorted by handle, with the active one marked.
    public func accounts() async throws -> [Account] {
        let active = try activeDID()
        let accounts = try await sessions.storedSessions()
            .map { Account(session: $0, active: $0.did == active) }
            .sorted { $0.displayName < $1.displayName }
        directory.remember(accounts, names: try keystore.names())
        return accounts
    }

    /// The active account, or `nil` when none is.
    public func activeAccount() async throws -> Account? {
        guard let did = try activeDID() else { return nil }
        guard let session = try await sessions.storedSession(for: did) else { return nil }
        return Account(session: session, active: true)
    }

    /// Finds an account by handle or DID; `nil` means the active account.
    ///
    /// - Throws: ``AccountError`` when there is no such account or none is active.
    public func account(_ handleOrDID: String?) async throws -> Account {
        guard let handleOrDID else {
            if let active = try await activeAccount() { return active }
            let all = try await accounts()
            throw all.isEmpty ? AccountError.noAccounts : .noActiveAccount("\(all.count) accounts are signed in")
        }
        let all = try await accounts()
        guard let match = all.first(where: { $0.matches(handleOrDID) }) else {
            throw all.isEmpty ? AccountError.noAccounts : .noSuchAccount(handleOrDID)
        }
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

    /// The connection of a signed-in account, ready for requests (the reference client's `restore`).
    public func restore(_ handleOrDID: String) async throws -> AccountConnection {
        try await connection(for: try await account(handleOrDID).did)
    }

    /// Signs an account out: revokes its tokens at the authorization server (best effort), deletes its session and
    /// DPoP key, and clears the active account if it was this one.
    ///
    /// - Returns: the account as it was, and whether the server confirmed the revocation.
    public func revoke(_ handleOrDID: String) async throws -> (Account, OAuthSessionManager.RevocationResult) {
        let account = try await account(handleOrDID)
        let result = try await sessions.signOut(did: account.did)
        connections[account.did] = nil
        directory.forget()
        try await keystore.withLock(Self.activeEntry) {
            if try activeDID() == account.did { try keystore.delete(Self.activeEntry) }
        }
        return (account, result)
    }

    func setActive(_ did: DID) async throws {
        try await keystore.withLock(Self.activeEntry) {
            try keystore.save(Data(did.rawValue.utf8), as: Self.activeEntry)
        }
    }

    /// The active account's DID; decrypts the entry only when it changed since the last read.
    func activeDID() throws -> DID? {
        let revision = try keystore.revision(of: Self.activeEntry)
        if let revision, let cached = directory.active, cached.revision == revision { return cached.did }
        guard let data = try keystore.load(Self.activeEntry) else {
            directory.active = nil
            return nil
        }
        let did = try? DID(validating: String(decoding: data, as: UTF8.self))
        directory.active = revision.map { (revision: $0, did: did) }
        return did
    }
}
