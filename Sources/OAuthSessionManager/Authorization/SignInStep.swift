public import Foundation

/// What a sign-in is doing before the authorization URL is ready, for a front end to show while the network answers.
public enum SignInStep: Sendable, Hashable {
    /// Resolving the handle, DID or server address the user gave (atproto.com/specs/handle, atproto.com/specs/did).
    case resolvingAccount(String)
    /// Fetching and checking the PDS's protected resource metadata and its authorization server's metadata
    /// (RFC 9728, RFC 8414).
    case checkingServers(pds: URL)
    /// Sending the pushed authorization request (RFC 9126) to the authorization server.
    case sendingRequest(authorizationServer: String)
}
