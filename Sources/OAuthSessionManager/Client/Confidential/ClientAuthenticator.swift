import Foundation
import OAuthMetadata
import WireFormat

/// Authenticates a confidential client's requests to one authorization server: a new client assertion, signed with
/// the key the grant is bound to, for every request and every retry (RFC 7523 §2.2 and §3).
struct ClientAuthenticator: Sendable {
    let key: ClientKey
    let clientID: String
    /// The authorization server's issuer, the assertion's `aud`.
    let audience: String
    let random: any RandomSource
    let now: @Sendable () -> Date

    /// The form parameters of one request: `client_assertion_type` and a new `client_assertion`.
    func parameters() throws -> [(String, String)] {
        let assertion = try ClientAssertion.make(
            key: key,
            clientID: clientID,
            audience: audience,
            issuedAt: now().addingTimeInterval(-ClientAssertion.backdating),
            random: random
        )
        return [("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion)]
    }
}

extension SessionManager {
    /// The authenticator of a confidential client's requests with the key `keyID` (a sign-in's own key, else the
    /// store's); `nil` for a public client.
    ///
    /// - Throws: ``SessionError`` (sign-in needed) when the key is no longer in the store.
    func authenticator(keyID: String?, clientID: String, issuer: String) async throws -> ClientAuthenticator? {
        guard let keyID else { return nil }
        let stored =
            signInKeys[keyID] == nil ? try await SessionError.carrying { try await clientKeySet.key(keyID) } : nil
        guard let key = signInKeys[keyID] ?? stored else {
            throw SessionError.signInNeeded(
                "the client key \(keyID) this session is bound to is no longer in the store, so the authorization "
                    + "server cannot be asked as this client"
            )
        }
        return ClientAuthenticator(key: key, clientID: clientID, audience: issuer, random: random, now: now)
    }
}
