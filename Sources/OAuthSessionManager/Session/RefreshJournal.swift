package import ATProtoSyntax
import Crypto
import Foundation
package import Keystore

/// A note in the store that an OAuth refresh request is on its way, so a process killed before it saved the rotated
/// tokens does not leave the next one to send a spent refresh token (atproto.com/specs/oauth, Tokens and Session
/// Lifetime: refresh tokens are single-use, and a replay ends the session at the server).
///
/// An app-password refresh JWT may be sent again, and takes no note.
///
/// The note holds a SHA-256 digest of the refresh token sent, never the token. It is written before the request and
/// removed once its outcome is settled: saved, refused, or certainly never sent (the connection was refused, say).
/// A request that got no answer in time, or whose connection broke after it was sent, may still have been carried
/// out, so its note stays, marked as unanswered. A note that still names the stored refresh token means the outcome
/// was lost; one that names another token is stale and harmless.
package struct RefreshJournal: Sendable {
    /// How an earlier refresh that sent the stored refresh token ended without settling.
    package enum Interruption: Equatable, Sendable {
        /// It was cut off (a killed process) after its request was sent and before its outcome was known.
        case cutOff
        /// Its request got no answer in time, or its connection broke after it was sent.
        case unanswered
    }

    package let keystore: any Keystore

    /// Creates the journal kept in `keystore`.
    package init(keystore: any Keystore) {
        self.keystore = keystore
    }

    static func entryName(did: DID) -> String { "refreshing/\(did.rawValue)" }

    /// Follows the digest in the note of a request that got no answer.
    private static let unansweredMark = Data("unanswered".utf8)

    /// Notes that `refreshToken` is about to be sent, durably: a store that holds the critical section's writes in a
    /// transaction commits the note before the request leaves, so a process killed during the request leaves it.
    func begin(_ did: DID, refreshToken: String) async throws {
        try await keystore.save(Self.digest(refreshToken), as: Self.entryName(did: did))
        try await keystore.checkpoint()
    }

    /// Marks the note as that of a request that got no answer but may have reached the server; when the mark cannot
    /// be saved, the note stays as ``begin(_:refreshToken:)`` wrote it, which guards the token all the same.
    func markUnanswered(_ did: DID, refreshToken: String) async {
        try? await keystore.save(Self.digest(refreshToken) + Self.unansweredMark, as: Self.entryName(did: did))
    }

    /// How an earlier refresh that sent `refreshToken` ended without settling, or `nil` when none did.
    package func interruption(_ did: DID, refreshToken: String) async -> Interruption? {
        guard let note = try? await keystore.load(Self.entryName(did: did)) else { return nil }
        let digest = Self.digest(refreshToken)
        if note == digest { return .cutOff }
        if note == digest + Self.unansweredMark { return .unanswered }
        return nil
    }

    /// Removes the note; a note left behind by a failed delete is stale once the token changes.
    func end(_ did: DID) async {
        try? await keystore.delete(Self.entryName(did: did))
    }

    private static func digest(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }
}
