package import ATProtoSyntax
package import Foundation
import Keystore

/// A confidential client's session that ended here because its client key was removed while it used it (a forced
/// removal), kept so that the account's next use says why, naming the key, and how to sign in again as the same
/// client, where it would otherwise only find no session.
///
/// Written for each session a forced key removal signs out; removed by the account's next sign-in, with its next
/// session, or by removing the account. It holds no token.
package struct EndedSessionRecord: Sendable, Hashable, Codable {
    /// The account's DID.
    package var did: DID
    /// Its handle, when it had one.
    package var handle: Handle?
    /// Its PDS origin.
    package var pds: URL
    /// The authorization server that issued the session.
    package var issuer: String
    /// The scope that was granted.
    package var scope: String
    /// The scope the sign-in asked for, to ask for again.
    package var requestedScope: String?
    /// The confidential client's `client_id`, to sign in as again.
    package var clientID: String
    /// The `kid` of the removed key the session was bound to.
    package var clientKeyID: String
    /// When the session ended.
    package var endedAt: Date
    /// Whether the authorization server confirmed the revocation of the session's grant (RFC 7009).
    var revoked: Bool
    /// Why the revocation failed, when it did; `nil` when it was confirmed or the server offers none.
    var revocationFailure: String?

    /// The record of `session`, bound to `keyID`, signed out at `endedAt` with the outcome `revocation`.
    package init(session: Session, clientID: String, keyID: String, endedAt: Date, revocation: Revocation) {
        did = session.did
        handle = session.handle
        pds = session.pds
        issuer = session.issuer
        scope = session.scope
        requestedScope = session.requestedScope
        self.clientID = clientID
        clientKeyID = keyID
        self.endedAt = endedAt
        switch revocation {
        case .revoked:
            revoked = true
        case .notSupported:
            revoked = false
        case .failed(let reason):
            revoked = false
            revocationFailure = reason
        }
    }

    /// What became of the session's grant at the server when it ended.
    package var revocation: Revocation {
        if revoked { return .revoked }
        return revocationFailure.map { .failed(reason: $0) } ?? .notSupported
    }

    static let entryPrefix = "ended-session/"

    static func entryName(did: DID) -> String { entryPrefix + did.rawValue }

    /// The record of `did`, when there is one and it reads.
    static func load(_ did: DID, from keystore: any Keystore) async -> EndedSessionRecord? {
        guard let data = try? await keystore.load(entryName(did: did)) else { return nil }
        return try? decoder.decode(EndedSessionRecord.self, from: data)
    }

    /// Every record that reads.
    static func all(in keystore: any Keystore) async throws -> [EndedSessionRecord] {
        var records: [EndedSessionRecord] = []
        for name in try await keystore.names() where name.hasPrefix(entryPrefix) {
            guard let did = try? DID(validating: String(name.dropFirst(entryPrefix.count))) else { continue }
            if let record = await load(did, from: keystore) { records.append(record) }
        }
        return records
    }

    /// Keeps the record, sealed like every other entry.
    func save(to keystore: any Keystore) async throws {
        try await keystore.save(try Self.encoder.encode(self), as: Self.entryName(did: did))
    }

    /// Forgets `did`'s record, best effort: a new session or a removal is what the caller does.
    static func clear(_ did: DID, in keystore: any Keystore) async {
        try? await keystore.delete(entryName(did: did))
    }

    /// The store's JSON form: dates in seconds since 1970, keys sorted.
    private static var encoder: JSONEncoder { SessionStore.encoder }
    private static var decoder: JSONDecoder { SessionStore.decoder }
}
