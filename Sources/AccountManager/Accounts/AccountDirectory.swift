import ATProtoSyntax
import Keystore

/// What the manager remembers between calls so that routing a request needs no decryption: the DIDs and handles
/// of the signed-in accounts (valid while the store's entry names stay the same) and the active account (valid
/// while its entry's revision stays the same).
struct AccountDirectory: Sendable {
    /// The signed-in accounts' handles and DIDs, and the entry names they were read under.
    var accounts: (names: [String], handles: [String: DID], dids: [String: DID])?
    /// The active account's DID and the revision of the entry it was read from.
    var active: (revision: EntryRevision, did: DID?)?

    /// Remembers the accounts read under a set of entry names.
    mutating func remember(_ accounts: [Account], names: [String]) {
        var handles: [String: DID] = [:]
        for account in accounts {
            if let handle = account.handle { handles[handle.rawValue] = account.did }
        }
        let dids = Dictionary(accounts.map { ($0.did.rawValue, $0.did) }) { first, _ in first }
        self.accounts = (names, handles, dids)
    }

    /// Forgets the accounts, after a sign-in or sign-out in this process.
    mutating func forget() {
        accounts = nil
        active = nil
    }

    /// The DID of the signed-in account a handle or DID names, if the remembered list has it.
    func lookUp(_ identifier: ATIdentifier) -> DID? {
        guard let accounts else { return nil }
        return switch identifier {
        case .did(let did): accounts.dids[did.rawValue]
        case .handle(let handle): accounts.handles[handle.rawValue]
        }
    }
}
