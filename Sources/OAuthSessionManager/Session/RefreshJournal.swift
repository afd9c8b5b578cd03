import ATProtoSyntax
import Crypto
import Foundation
import Keystore

/// A note in the store that a refresh request is on its way, so a process killed before it saved the rotated tokens
/// does not leave the next one to send a spent refresh token (atproto.com/specs/oauth, Tokens and Session Lifetime:
/// refresh tokens are single-use, and a replay ends the session at the server).
///
/// The note holds a SHA-256 digest of the refresh token sent, never the token. It is written before the request and
/// removed once its outcome is settled: saved, refused, or not answered at all. A note that still names the stored
/// refresh token means the outcome was lost; one that names another token is stale and harmless.
struct RefreshJournal: Sendable {
    let keystore: any Keystore

    static func entryName(did: DID) -> String { "refreshing/\(did.rawValue)" }

    /// Notes that `refreshToken` is about to be sent, durably: a store that holds the critical section's writes in a
    /// transaction commits the note before the request leaves, so a process killed during the request leaves it.
    func begin(_ did: DID, refreshToken: String) async throws {
        try await keystore.save(Self.digest(refreshToken), as: Self.entryName(did: did))
        try await keystore.checkpoint()
    }

    /// Whether an earlier refresh sent `refreshToken` and never settled.
    func wasInterrupted(_ did: DID, refreshToken: String) async -> Bool {
        (try? await keystore.load(Self.entryName(did: did))) == Self.digest(refreshToken)
    }

    /// Removes the note; a note left behind by a failed delete is stale once the token changes.
    func end(_ did: DID) async {
        try? await keystore.delete(Self.entryName(did: did))
    }

    private static func digest(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }
}
