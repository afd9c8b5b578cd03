import AccountManager
import Foundation
import OAuthLoopbackListener
import OAuthMetadata
import OAuthSessionManager

/// The OAuth sign-in in the browser that `accounts add` and `accounts upgrade` run: a loopback listener, the
/// authorization URL opened (or printed), the redirect waited for, then the sign-in completed.
///
/// On any failure, including Ctrl-C, the browser is shown why and the started sign-in is forgotten.
struct BrowserSignIn {
    let options: BrowserSignInOptions
    /// `--client-id` or `ATOAUTH_CLIENT_ID`, when given.
    let clientID: URL?
    /// What was typed to sign in (a handle, a DID or a server URL), for the `atoauth doctor` command a failure names.
    var target: String?

    /// Runs the sign-in, with the redirect URL the listener receives.
    func run(_ context: CLIContext, _ steps: SignInSteps) async throws -> AccountSignIn {
        let listener = try await LoopbackCallbackListener.start(port: options.callbackPort ?? 0)
        var pendingState: String?
        do {
            let request: AuthorizationRequest
            do {
                request = try await steps.start(try await client(context, redirectURI: listener.redirectURI))
            } catch {
                throw diagnosable(error, context)
            }
            pendingState = request.state
            listener.expect(state: request.state)
            let signIn = try await steps.finish(
                request,
                at: .listener(listener),
                options: options,
                environment: context.environment
            )
            await listener.finish(with: .signedIn(as: signIn.account.displayName))
            return signIn
        } catch {
            // Clean up outside this (possibly cancelled) task, so Ctrl-C still forgets the pending sign-in. Before
            // the authorization URL exists no redirect can be the browser's: what reached the listener then hears
            // nothing of the account.
            let accounts = context.accounts
            let message = pendingState == nil ? "No sign-in is under way here." : CLIFailure(error).message
            await Task {
                await listener.finish(with: .failed(message))
                if let pendingState { try? await accounts.cancelAuthorization(state: pendingState) }
            }
            .value
            throw error
        }
    }

    /// A failure before the browser opens (the account, its servers' metadata, the pushed authorization request),
    /// with the `atoauth doctor` command that shows which step fails and who can fix it; other errors unchanged.
    private func diagnosable(_ error: any Error, _ context: CLIContext) -> any Error {
        let failure = CLIFailure(error)
        guard let target, [.failed, .securityCheckFailed].contains(failure.status) else {
            return error
        }
        var words = ["atoauth", "doctor", target]
        if options.requestedScope != AddCommand.defaultScope { words += ["--scope", options.requestedScope] }
        if let clientID { words += ["--client-id", clientID.absoluteString] }
        let command = words.map { ShellWords.quoted($0) }.joined(separator: " ")
        var diagnosed = failure
        diagnosed.message += " To see which step fails and who can fix it, run `\(command)`."
        return diagnosed
    }

    /// The loopback development client, or the hosted client named by `--client-id` / `ATOAUTH_CLIENT_ID`.
    private func client(_ context: CLIContext, redirectURI: URL) async throws -> OAuthClient {
        guard let clientID else {
            // A fixed port is registered in the client_id too, for servers that compare redirect URIs exactly.
            return try OAuthClient.loopback(
                redirectURI: redirectURI,
                scope: options.requestedScope,
                registeringPort: options.callbackPort != nil
            )
        }
        do {
            return try await context.accounts.hostedClient(
                clientID: clientID,
                redirectURI: redirectURI,
                scope: options.requestedScope
            )
        } catch let error as SessionError where error.code == .invalidClientMetadata && error.field == "redirect_uri" {
            // The listener's redirect URI is not the document's.
            var failure = CLIFailure(error)
            failure.message +=
                " atoauth takes the redirect at http://127.0.0.1:<port>/callback: the document needs "
                + "http://127.0.0.1/callback (any port)"
                + (options.callbackPort == nil
                    ? ", or, if its loopback redirect URI names a port, give that port with --callback-port." : ".")
            throw failure
        }
    }
}
