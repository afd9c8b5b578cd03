import ATProtoSyntax
import DPoPRequestExecutor
import Foundation
import Keystore
import OAuthSessionManager

/// Puts a signed-in session for a server that does not check tokens into a keystore, as sign-in would store it.
enum StoredSession {
    /// The account the session belongs to.
    static let did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"

    /// Writes a session of `did` at `pds` with `accessToken`, valid for an hour from `now`, and its DPoP key.
    static func save(
        did text: String = did,
        handle: String = "alice.test",
        pds: URL,
        accessToken: String,
        key: DPoPKey,
        now: Date,
        into keystore: any Keystore
    ) async throws -> DID {
        let did = try DID(validating: text)
        let origin = pds.absoluteString
        let session: [String: Any] = [
            "did": did.rawValue, "handle": handle, "pds": origin, "issuer": origin,
            "scope": "atproto transition:generic", "accessToken": accessToken,
            "accessTokenExpiresAt": now.timeIntervalSince1970 + 3600, "refreshToken": "ref-unused",
            "clientID": "http://localhost", "tokenEndpoint": origin + "/oauth/token",
            "createdAt": now.timeIntervalSince1970, "updatedAt": now.timeIntervalSince1970,
        ]
        try await keystore.save(
            try JSONSerialization.data(withJSONObject: session, options: [.sortedKeys]),
            as: Session.entryName(did: did)
        )
        try await keystore.save(key.persistedRepresentation, as: Session.keyEntryName(did: did))
        return did
    }
}
