public import ATProtoSyntax
import Foundation
import Keystore
import Logging
import OAuthSessionManager

extension AccountManager {
    /// Every account whose session can be read, sorted by handle, with the active one marked.
    ///
    /// A session that cannot be read is left out; ``accountListing()`` reports it.
    public func accounts() async throws -> [Account] {
        try await accountListing().accounts
    }

    /// Every account whose session can be read, and the sessions that cannot, so that one damaged entry does not
    /// hide the other accounts.
    public func accountListing() async throws -> AccountListing {
        let active = try await activeDID()
        let stored = try await sessions.storedSessionsSkippingUnreadable()
        let accounts = stored.sessions
            .map { Account(session: $0, active: $0.did == active) }
            .sorted { $0.displayName < $1.displayName }
        directory.remember(accounts, names: try await keystore.names())
        await handleIndex.record(accounts, keepingHandlesOf: stored.unreadable.map(\.did))
        return AccountListing(accounts: accounts, unreadable: stored.unreadable)
    }

    /// Deletes the session `identifier` names (by DID, or by the handle the index last knew it by) when it cannot be
    /// read, and hands the active account over.
    func discardUnreadable(
        _ identifier: ATIdentifier
    ) async throws -> (session: UnreadableSession, active: ActiveAccountChange)? {
        // Listed first: the listing writes the index again, so a handle a readable account now has names it.
        let unreadable = try await accountListing().unreadable
        let did: DID? =
            switch identifier {
            case .did(let did): did
            case .handle(let handle): await handleIndex.did(for: handle)
            }
        guard let did, let match = unreadable.first(where: { $0.did == did }) else { return nil }
        try await sessions.discardSession(did: match.did)
        await handleIndex.remove(match.did)
        connections[match.did] = nil
        directory.forget()
        return (match, try await uncancelled { try await self.handOverActive(from: match.did) })
    }

    /// The active account, or `nil` when none is.
    package func activeAccount() async throws -> Account? {
        guard let did = try await activeDID() else { return nil }
        guard let session = try await sessions.storedSession(for: did) else { return nil }
        return Account(session: session, active: true)
    }

    /// Finds an account by handle or DID; `nil` means the active account.
    ///
    /// - Throws: ``AccountError`` when there is no such account or none is active.
    public func account(_ identifier: ATIdentifier? = nil) async throws -> Account {
        guard let identifier else {
            if let active = try await activeAccount() { return active }
            // The active entry still names an account whose session is gone: say so rather than pick another.
            if let did = try await activeDID() {
                // Another process ended it without handing over: hand over now, and say so (and why, when a forced
                // client key removal ended it).
                let ended = await keyRemovalError(.did(did))
                var error = ended ?? AccountError.activeAccountSignedOut(did.rawValue)
                error.activeChange = try await handOverActive(from: did)
                throw error
            }
            let all = try await accounts()
            throw all.isEmpty ? AccountError.noAccounts : .noActiveAccount("\(all.count) accounts are signed in")
        }
        // That account's session only, when the store has it (`signedInDID` reads it, `storedSession` keeps it).
        if let did = try await signedInDID(identifier), let session = try await sessions.storedSession(for: did) {
            return Account(session: session, active: try await activeDID() == did)
        }
        let ended = await keyRemovalError(identifier)
        throw ended ?? AccountError.noSuchAccount(identifier.description)
    }

    /// Why the account `identifier` names has no session, when a forced client key removal ended it here: its
    /// record names the key and the client to sign in as again (until a new sign-in or ``remove(_:)`` clears it).
    func keyRemovalError(_ identifier: ATIdentifier) async -> AccountError? {
        await sessions.endedSession(matching: identifier).map { AccountError.clientKeyRemoved($0) }
    }

    /// Makes an account active.
    ///
    /// - Throws: ``AccountError`` when no signed-in account matches, also when another process removed it meanwhile.
    @discardableResult
    public func switchTo(_ identifier: ATIdentifier) async throws -> Account {
        var account = try await account(identifier)
        try await setActive(account.did)
        account.active = true
        return account
    }

    /// The connection of a signed-in account, ready for requests (the reference client's `restore`).
    ///
    /// Only that account's session is decrypted: the other accounts are read (once) only when the store's entries
    /// changed since this manager last listed them.
    public func restore(_ identifier: ATIdentifier) async throws -> AccountConnection {
        if let did = try await signedInDID(identifier) { return try await connection(for: did) }
        return try await connection(for: try await account(identifier).did)
    }

    func signOut(
        _ identifier: ATIdentifier
    ) async throws -> (
        account: Account, revocation: Revocation, active: ActiveAccountChange
    ) {
        let account = try await account(identifier)
        let result = try await sessions.signOut(did: account.did)
        return try await uncancelled {
            await self.forgetSignedOut(account.did)
            return (account, result, try await self.handOverActive(from: account.did))
        }
    }

    private func forgetSignedOut(_ did: DID) async {
        connections[did] = nil
        directory.forget()
        await handleIndex.remove(did)
    }

    /// Makes `did` the active account, under the active entry's lock, which a removal hands the active account over
    /// under too: an account whose session is gone by then (another process removed it since it was looked up) is
    /// not made active, for the entry would name an account no longer signed in.
    ///
    /// - Throws: ``AccountError`` (`noSuchAccount`) when the session is gone.
    func setActive(_ did: DID) async throws {
        try await keystore.withLock(Self.activeEntry) {
            guard try await holdsSession(did) else {
                directory.forget()
                throw AccountError.noSuchAccount(did.rawValue)
            }
            try await keystore.save(Data(did.rawValue.utf8), as: Self.activeEntry)
        }
    }

    /// Whether the session of `did` is in the store: told by its entry's revision, or, in a store that keeps none,
    /// by the entry itself.
    func holdsSession(_ did: DID) async throws -> Bool {
        let name = Session.entryName(did: did)
        return switch try await keystore.revision(of: name) {
        case let revision?: revision != .absent
        case nil: try await keystore.load(name) != nil
        }
    }

    /// The active account's DID; decrypts the entry only when it changed since the last read.
    ///
    /// An entry that is damaged names no account, as one that holds no DID does: it is only a pointer, which the next
    /// choice of an active account replaces, and every account stays usable by name meanwhile.
    func activeDID() async throws -> DID? {
        let revision = try await keystore.revision(of: Self.activeEntry)
        if let revision, let cached = directory.active, cached.revision == revision { return cached.did }
        let did: DID?
        do {
            did = try await keystore.load(Self.activeEntry).flatMap {
                try? DID(validating: String(decoding: $0, as: UTF8.self))
            }
        } catch let error as KeystoreError where error.code == .corrupted {
            let message =
                "the entry naming the active account cannot be read, so no account is active until one is chosen "
                + "(atoauth accounts switch): \(error.description)"
            configuration.logger.warning("\(message)")
            did = nil
        }
        // Remembered for the entry's revision, a damaged one too: it is read, and warned of, once until it changes.
        directory.active = revision.map { (revision: $0, did: did) }
        return did
    }
}
