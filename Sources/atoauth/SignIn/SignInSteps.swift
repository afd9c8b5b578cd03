import AccountManager
import Foundation
import OAuthMetadata
import OAuthSessionManager

/// How a sign-in is sent and completed, whichever way its redirect comes back (to the loopback listener, or pasted).
struct SignInSteps {
    /// Sends the authorization request for a client.
    let start: (OAuthClient) async throws -> AuthorizationRequest
    /// Finishes the sign-in with the redirect URL.
    let complete: (URL) async throws -> AccountSignIn
}
