import AccountManager
import Foundation
import OAuthLoopbackListener
import OAuthSessionManager

/// The OAuth sign-in in the browser that `accounts add` and `accounts upgrade` run: a loopback listener, the
/// authorization URL opened (or printed), the redirect waited for, then the sign-in completed.
///
/// On any failure, including Ctrl-C, the browser is shown why and the started sign-in is forgotten.
struct BrowserSignIn {
    let options: BrowserSignInOptions
    /// `--client-id`, when given.
    let clientID: String?

    /// Runs the sign-in: `start` sends the authorization request for the client, `complete` finishes it with the
    /// redirect URL.
    func run(
        _ context: CLIContext,
        start: (OAuthClient) async throws -> AuthorizationRequest,
        complete: (URL) async throws -> AccountSignIn
    ) async throws -> AccountSignIn {
        let listener = try await LoopbackCallbackListener.start(port: options.callbackPort ?? 0)
        var pendingState: String?
        do {
            let request = try await start(try await client(context, redirectURI: listener.redirectURI))
            pendingState = request.state
            listener.expect(state: request.state)
            Output.message("Open this URL to sign in:\n\(request.url.absoluteString)")
            let wait = RedirectWait(
                listener: listener,
                state: request.state,
                timeout: options.timeout,
                launch: options.noBrowser ? nil : BrowserOpener.open(request.url, environment: context.environment)
            )
            let callback = try await wait.callback()
            pendingState = nil
            let signIn = try await complete(callback)
            await listener.finish(with: .signedIn(as: signIn.account.displayName))
            return signIn
        } catch {
            // Clean up outside this (possibly cancelled) task, so Ctrl-C still forgets the pending sign-in.
            let accounts = context.accounts
            let message = CLIFailure(error).message
            await Task {
                await listener.finish(with: .failed(message))
                if let pendingState { try? await accounts.cancelAuthorization(state: pendingState) }
            }
            .value
            throw error
        }
    }

    /// The loopback development client, or the hosted client named by `--client-id` / `ATOAUTH_CLIENT_ID`.
    private func client(_ context: CLIContext, redirectURI: URL) async throws -> OAuthClient {
        guard let clientID = clientID ?? context.environment["ATOAUTH_CLIENT_ID"].nonEmpty else {
            // A fixed port is registered in the client_id too, for servers that compare redirect URIs exactly.
            return try OAuthClient.loopback(
                redirectURI: redirectURI,
                scope: options.scope,
                registeringPort: options.callbackPort != nil
            )
        }
        let url = try CLIContext.url(clientID, option: "--client-id")
        return try await context.accounts.hostedClient(clientID: url, redirectURI: redirectURI, scope: options.scope)
    }
}
