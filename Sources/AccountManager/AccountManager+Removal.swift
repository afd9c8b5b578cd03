public import ATProtoSyntax
import Foundation
import Keystore
public import OAuthSessionManager

extension AccountManager {
    /// Removes an account: signs it out (revokes its tokens at the server that issued them, best effort, then
    /// deletes its session and DPoP key), or deletes its session by DID without decrypting it when the session
    /// cannot be read, and says which account is active afterwards.
    ///
    /// When the removed account was the active one, the remaining account signed in most recently becomes active
    /// (the latest session `createdAt`; on a tie, the first by handle, then DID); when none remains, no account is
    /// active. Removing any other account leaves the active one as it is.
    ///
    /// An account whose session a forced client key removal ended (``removeClientKey(_:force:)``) is removed too:
    /// its record is forgotten, and the revocation is the one made when the session ended.
    /// - Parameter identifier: the account's handle or DID (for an unreadable session, a handle only while the
    ///   accounts' handle index still knows it).
    /// - Returns: what was removed, and what became of the active account.
    /// - Throws: ``AccountError`` when no account matches.
    public func remove(_ identifier: ATIdentifier) async throws -> AccountRemoval {
        if let (session, active) = try await discardUnreadable(identifier) {
            return AccountRemoval(removed: .unreadable(session), active: active)
        }
        if try await signedInDID(identifier) == nil, let ended = await sessions.endedSession(matching: identifier) {
            try await sessions.forgetEndedSession(did: ended.did)
            directory.forget()
            let removed = Account(ended: ended)
            return AccountRemoval(
                removed: .account(removed, revocation: ended.revocation),
                active: try await uncancelled { try await self.handOverActive(from: ended.did) }
            )
        }
        let (account, revocation, active) = try await signOut(identifier)
        return AccountRemoval(removed: .account(account, revocation: revocation), active: active)
    }

    /// Makes another account active if `did`, just removed, was the active one; under the active entry's lock.
    func handOverActive(from did: DID) async throws -> ActiveAccountChange {
        let change = try await keystore.withLock(Self.activeEntry) { () async throws -> ActiveAccountChange in
            guard try await activeDID() == did else { return .unchanged }
            let remaining = try await sessions.storedSessionsSkippingUnreadable().sessions.filter { $0.did != did }
            guard let successor = remaining.max(by: Self.signedInBefore) else {
                try await keystore.delete(Self.activeEntry)
                return .noneActive
            }
            try await keystore.save(Data(successor.did.rawValue.utf8), as: Self.activeEntry)
            return .switched(to: Account(session: successor, active: true))
        }
        directory.forget()
        return change
    }

    /// Makes another account active if `did` was the active one and its session is gone from the store (the server
    /// ended it, or it had to be deleted), as ``remove(_:)`` does.
    func handOverActive(fromEnded did: DID) async throws -> ActiveAccountChange {
        guard try await !holdsSession(did) else { return .unchanged }
        return try await handOverActive(from: did)
    }

    /// The order in which a successor is chosen: `first` ranks below `second` when it was signed in earlier, or at
    /// the same moment and sorts after it by handle, then DID.
    static func signedInBefore(_ first: Session, _ second: Session) -> Bool {
        if first.createdAt != second.createdAt { return first.createdAt < second.createdAt }
        let firstName = first.handle?.rawValue ?? first.did.rawValue
        let secondName = second.handle?.rawValue ?? second.did.rawValue
        if firstName != secondName { return firstName > secondName }
        return first.did.rawValue > second.did.rawValue
    }
}

/// What ``AccountManager/remove(_:)`` removed, and what became of the active account.
public struct AccountRemoval: Sendable, Hashable {
    /// What was removed.
    public enum Removed: Sendable, Hashable {
        /// A signed-in account, signed out; the revocation says whether the server confirmed it.
        case account(Account, revocation: Revocation)
        /// A session that could not be read, deleted without revocation.
        case unreadable(UnreadableSession)
    }

    /// What was removed.
    public var removed: Removed
    /// What became of the active account.
    public var active: ActiveAccountChange
}

/// What became of the active account when an account was removed.
public enum ActiveAccountChange: Sendable, Hashable {
    /// The removed account was not the active one; the active account is as it was.
    case unchanged
    /// The removed account was the active one; this account is active now.
    case switched(to: Account)
    /// The removed account was the active one and no other account is signed in: none is active now.
    case noneActive
}
