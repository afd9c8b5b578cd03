package import ATProtoSyntax
package import Foundation
package import Keystore

/// The last refresh that failed and left the session as it was, so that a diagnosis can say why calls failed.
///
/// Written for a server error or a network failure before the request went out; removed by the next refresh that
/// succeeds, and with the session. It holds the time and the failure in words, never a token.
package struct RefreshFailureRecord: Sendable, Hashable, Codable {
    /// When the refresh failed.
    package var at: Date
    /// Why, in words safe to print.
    package var reason: String

    static func entryName(did: DID) -> String { "refresh-failure/\(did.rawValue)" }

    /// The record of `did`'s last failed refresh, when there is one and it reads.
    package static func load(_ did: DID, from keystore: any Keystore) async -> RefreshFailureRecord? {
        guard let data = try? await keystore.load(entryName(did: did)) else { return nil }
        return try? JSONDecoder().decode(RefreshFailureRecord.self, from: data)
    }

    /// Records a failed refresh, best effort: the failure itself is what the caller reports.
    func save(_ did: DID, to keystore: any Keystore) async {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? await keystore.save(data, as: Self.entryName(did: did))
    }

    /// Forgets `did`'s failed refresh, best effort.
    static func clear(_ did: DID, in keystore: any Keystore) async {
        try? await keystore.delete(entryName(did: did))
    }
}
