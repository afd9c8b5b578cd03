import AccountManager
import Foundation
import HTTPTransport
import OAuthMetadata
import OAuthSessionManager

/// How a sign-in is sent and completed, whichever way its redirect comes back (to the loopback listener, or pasted).
struct SignInSteps {
    /// Sends the authorization request for a client.
    let start: (OAuthClient) async throws -> AuthorizationRequest
    /// Finishes the sign-in with the redirect URL.
    let complete: (URL) async throws -> AccountSignIn

    /// Prints the authorization URL and opens it unless told not to, waits for the redirect at `destination`, and
    /// finishes the sign-in with it.
    func finish(
        _ request: AuthorizationRequest,
        at destination: RedirectWait.Destination,
        options: BrowserSignInOptions,
        environment: [String: String]
    ) async throws -> AccountSignIn {
        Output.message("Open this URL to sign in:\n\(request.url.absoluteString)")
        let wait = RedirectWait(
            destination: destination,
            state: request.state,
            timeout: options.timeout,
            launch: options.noBrowser ? nil : BrowserOpener.open(request.url, environment: environment)
        )
        let callback = try await wait.callback()
        do {
            return try await complete(callback)
        } catch {
            throw Self.cutOff(error)
        }
    }

    /// A server that could not be reached after the approval (it went away mid-sign-in), saying to start again,
    /// since the approval's code is spent or expires; other errors unchanged.
    static func cutOff(_ error: any Error) -> any Error {
        let unreachable =
            error is TransportError || (error as? SessionError)?.code == .networkFailure
        guard unreachable else { return error }
        var failure = CLIFailure(error)
        failure.message += " Nothing was stored; start the sign-in again."
        return failure
    }
}
