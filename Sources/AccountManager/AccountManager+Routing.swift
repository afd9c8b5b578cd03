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
            revision: try await keystore.revision(of: Session.entryName(did: did)),
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
        if let repo = route.repo.flatMap({ try? ATIdentifier(validating: $0) }), let did = try await signedInDID(repo) {
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

    /// The DID of the signed-in account that `handleOrDID` names, or `nil`; reads the store only when its entries
    /// changed since the last look.
    func signedInDID(_ identifier: ATIdentifier) async throws -> DID? {
        if let did = directory.lookUp(identifier) { return did }
        let names = try await keystore.names()
        if directory.accounts?.names == names { return nil }
        _ = try await accounts()
        return directory.lookUp(identifier)
    }
}
