import Foundation

/// The answer of `com.atproto.server.createSession` or `refreshSession`: the two JWTs and whom they are for.
///
/// Lexicon `com.atproto.server.createSession#output`. Never printed: it holds secrets.
struct LegacySessionAnswer: Sendable {
    /// The access JWT, sent as `Authorization: Bearer`.
    var accessJwt: String
    /// The refresh JWT, rotated on every refresh.
    var refreshJwt: String
    /// The account the tokens are for.
    var did: String
    /// The handle the PDS names; informational, the checked identity's handle is kept instead.
    var handle: String?

    /// Reads an answer body; `nil` when a member is missing, empty, or not a string.
    init?(_ body: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let access = object["accessJwt"] as? String, !access.isEmpty,
            let refresh = object["refreshJwt"] as? String, !refresh.isEmpty,
            let did = object["did"] as? String, !did.isEmpty
        else { return nil }
        accessJwt = access
        refreshJwt = refresh
        self.did = did
        handle = object["handle"] as? String
    }
}
