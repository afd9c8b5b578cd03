import Foundation

/// What a started sign-in must remember until its callback: kept encrypted in the keystore under
/// `pending/<state>` for ten minutes, so a later process can complete it (atproto.com/specs/oauth, Authorization Flow).
struct PendingAuthorization: Codable, Sendable {
    /// The `state` sent in the PAR.
    var state: String
    /// The PKCE verifier; secret.
    var codeVerifier: String
    /// The DPoP key used since the PAR, as ``DPoPKey/persistedRepresentation``; secret.
    var dpopKey: Data
    /// The issuer the PAR went to; the callback's `iss` must equal it.
    var issuer: String
    /// The DID the user started from, when they gave a handle or DID; the token's `sub` must equal it.
    var expectedDID: String?
    /// The client ID used.
    var clientID: String
    /// The redirect URI sent in the PAR.
    var redirectURI: String
    /// The scope requested.
    var scope: String
    /// The token endpoint from the verified metadata.
    var tokenEndpoint: URL
    /// The revocation endpoint, if the server has one.
    var revocationEndpoint: URL?
    /// When the PAR was sent.
    var createdAt: Date
    /// Whether an answer to the PAR (its `use_dpop_nonce` challenge included) carried a `DPoP-Nonce`; `nil` in
    /// records written before it was kept.
    var serverIssuedNonce: Bool? = nil
    /// The `kid` of the client key a confidential client's PAR was authenticated with; `nil` for a public client.
    ///
    /// The code exchange uses it too, and the grant is bound to it.
    var clientKeyID: String? = nil

    /// How long a pending sign-in can be completed.
    static let lifetime: TimeInterval = 600

    /// The keystore entry name for a state.
    static func entryName(state: String) -> String { "pending/\(state)" }

    /// Whether the record is too old to complete.
    func isExpired(now: Date) -> Bool { now.timeIntervalSince(createdAt) > Self.lifetime || now < createdAt - 300 }
}
