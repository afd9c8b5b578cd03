public import Foundation

/// A started sign-in: the URL to open in the system browser and what the callback will be checked against.
public struct AuthorizationRequest: Sendable, Hashable {
    /// `<authorization_endpoint>?client_id=…&request_uri=…`; open it in the system browser, never a web view.
    public let url: URL
    /// The `state` the callback must carry; not secret, single use.
    public let state: String
    /// The authorization server's issuer.
    public let issuer: String
    /// The DID the user started from, when known.
    public let expectedDID: String?
    /// The redirect URI the browser will be sent to.
    public let redirectURI: URL
}
