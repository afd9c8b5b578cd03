package import ATProtoSyntax
import Keystore
import OAuthSessionManager

extension AccountManager {
    /// The long-lived connection of a signed-in account; made once per process and account.
    ///
    /// - Throws: ``AccountError`` when the account has no session here.
    package func connection(for did: DID) async throws -> AccountConnection {
        if let existing = connections[did] { return existing }
        guard let session = try await sessions.storedSession(for: did) else {
            let ended = await keyRemovalError(.did(did))
            throw ended ?? AccountError.noSuchAccount(did.rawValue)
        }
        let connection = AccountConnection(
            session: session,
            key: session.kind == .oauth ? try await sessions.dpopKey(for: did) : nil,
            manager: self
        )
        connections[did] = connection
        return connection
    }

    /// The connection a request goes out through, chosen as ``AccountRoute`` describes.
    ///
    /// - Throws: ``AccountError`` when an explicit account is not signed in, or no account is active.
    package func connection(for route: AccountRoute) async throws -> AccountConnection {
        if let explicit = route.explicit { return try await restore(explicit) }
        // A `repo` naming an account whose session cannot be read routes nothing: the call goes out as it would
        // without one.
        if let repo = route.repo.flatMap({ try? ATIdentifier(validating: $0) }), let did = try? await signedInDID(repo),
            try await isStillStored(did)
        {
            return try await connection(for: did)
        }
        if let fallback = route.fallback { return try await restore(fallback) }
        // The active account's connection, once made, serves while its session is stored: the connection reads the
        // session again itself when it changed, so it is not read and decrypted here on every request.
        if let did = try await activeDID(), let made = connections[did],
            let revision = try await keystore.revision(of: Session.entryName(did: did)), revision != .absent
        {
            return made
        }
        return try await connection(for: try await account(nil).did)
    }

    /// Whether the session of `did` is still stored, as far as its entry's revision tells without reading it (a store
    /// that keeps no revisions is taken at its word); when another process removed it, what this one remembered of
    /// the accounts is forgotten.
    private func isStillStored(_ did: DID) async throws -> Bool {
        guard try await keystore.revision(of: Session.entryName(did: did)) == .absent else { return true }
        directory.forget()
        connections[did] = nil
        return false
    }

    /// The DID of the signed-in account that `identifier` names, or `nil`.
    ///
    /// Decrypts that account's session only (to tell a readable one): a DID names its session's entry, a handle is
    /// looked up in the ``HandleIndex``. The store's entries are listed, and every session read, only when the index
    /// does not know the handle or is wrong about it, and the entries changed since the last listing.
    ///
    /// - Throws: the keystore's error when the session `identifier` names (by DID, or by the handle the index last
    ///   knew it by) cannot be read: the account is signed in here, damaged, rather than absent.
    func signedInDID(_ identifier: ATIdentifier) async throws -> DID? {
        if let did = directory.lookUp(identifier) { return did }
        let candidate: DID? =
            switch identifier {
            case .did(let did): did
            case .handle(let handle): await handleIndex.did(for: handle)
            }
        if let candidate {
            guard let session = try await sessions.storedSession(for: candidate) else {
                // No session under that DID: named by DID, it is not signed in here.
                if case .did = identifier { return nil }
                return try await listedDID(identifier)
            }
            if identifier.names(did: session.did, handle: session.handle) { return candidate }
        }
        return try await listedDID(identifier)
    }

    /// The DID the accounts' listing gives for `identifier`; lists them again only when the store's entries changed
    /// since the last listing.
    private func listedDID(_ identifier: ATIdentifier) async throws -> DID? {
        if directory.accounts?.names == (try await keystore.names()) { return nil }
        _ = try await accounts()
        return directory.lookUp(identifier)
    }
}
