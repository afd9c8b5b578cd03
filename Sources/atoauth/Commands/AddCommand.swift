import ATProtoPermissions
import AccountManager
import ArgumentParser
import Foundation
import OAuthLoopbackListener
import OAuthSessionManager

/// `atoauth accounts add`.
struct AddCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Sign in to an account with OAuth in the browser and make it active.",
        discussion: """
            Starts a listener on http://127.0.0.1:<port>/callback, sends a pushed authorization request, and opens \
            the authorization page: with `$BROWSER <url>` when BROWSER is set, else xdg-open (or open on macOS). \
            The URL is always printed on stderr. After you approve, the redirect is checked, the code exchanged, \
            the account verified and its session stored encrypted. On a terminal, one line shows until when it \
            waits. Ctrl-C cancels and leaves nothing behind.

            Over SSH or in a container, use --no-browser and open the URL in a browser on any machine. That \
            browser ends on an unreachable http://127.0.0.1:<port>/callback?… page: paste its full address here \
            and press Enter (a terminal does not echo it). It passes the same checks as the redirect: another \
            address gets a message and you may paste again; another sign-in's state fails as a security check \
            (exit 4). When the browser cannot be opened, atoauth says so and takes a pasted address the same \
            way. The redirect to the listener is accepted meanwhile; the first to arrive wins.

            Signing in to an account that already has a session here replaces it and revokes the old grant at \
            its authorization server (best effort; reported on stderr, and as previousSession with --json).

            Examples:
              atoauth accounts add alice.bsky.social
              atoauth accounts add did:plc:ewvi7nxzyoun6zhxrhs64oiz \\
                --scope "atproto transition:generic"
              atoauth accounts add https://bsky.social --no-browser
              atoauth accounts add alice.bsky.social --scope \\
                "atproto repo:app.bsky.feed.post blob:image/*"

            Ask for exactly the permissions the work needs (atproto.com/specs/permission): repo:<collection> \
            with ?action=create|update|delete, blob:<mime pattern>, rpc:<method>?aud=<did>#<service>, \
            account:email|repo, identity:handle|*, include:<permission set>, or the broad transition:generic. \
            When the server grants less than asked, a warning names what is missing.
            """
    )

    /// Signing in resolves the account and talks to its servers; it acts as no existing account, so no `--account`.
    static let globalOptions = GlobalOption.store.union([.plcDirectory, .handleResolver, .allowHTTPLoopback, .clientID])

    @Argument(help: ArgumentHelp("A handle, a DID, or a PDS or entryway URL.", valueName: "handle | did | https://pds"))
    var identifier: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The permissions to request, space-separated; atproto is always included.",
            valueName: "permissions"
        )
    )
    var scope = Self.defaultScope

    @Option(
        name: .long,
        help: "Listen for the redirect on this port, also registered in the loopback client_id (default: a free port)."
    )
    var callbackPort: Int?

    @Flag(
        name: .long,
        help: "Do not open a browser: print the URL, and also take the redirect address pasted on stdin."
    )
    var noBrowser = false

    @Option(name: .long, help: "Seconds to wait for the browser's redirect, at most a day (86400).")
    var timeout = 300

    @OptionGroup var global: GlobalOptions<Self>

    /// The longest `--timeout`: a day is more than any sign-in needs, and far from where a `Duration` overflows.
    static let maximumTimeout = 86_400

    func validate() throws {
        if let callbackPort, !(1...65_535).contains(callbackPort) {
            throw ValidationError("--callback-port must be between 1 and 65535.")
        }
        guard (1...Self.maximumTimeout).contains(timeout) else {
            throw ValidationError("--timeout must be a number of seconds from 1 to \(Self.maximumTimeout).")
        }
        do {
            _ = try ScopeSet(requested: scope)
        } catch {
            throw ValidationError("--scope: \(error.description) \(PermissionHelp.examples)")
        }
    }

    func run() async throws {
        let signIn = try await CLIContext.run(global) { context in
            let listener = try await LoopbackCallbackListener.start(port: callbackPort ?? 0)
            var pendingState: String?
            do {
                let client = try await client(context, redirectURI: listener.redirectURI)
                let request = try await context.accounts.authorize(identifier, client: client)
                pendingState = request.state
                listener.expect(state: request.state)
                Output.message("Open this URL to sign in:\n\(request.url.absoluteString)")
                let wait = RedirectWait(
                    listener: listener,
                    state: request.state,
                    timeout: timeout,
                    launch: noBrowser ? nil : BrowserOpener.open(request.url, environment: context.environment)
                )
                let callback = try await wait.callback()
                pendingState = nil
                let signIn = try await context.accounts.completeSignIn(callbackURL: callback)
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
        let account = signIn.account
        if global.json {
            var json = AccountJSON(account)
            json.previousSession = signIn.previousGrant.map(RevocationText.word)
            try Output.json(json)
        } else {
            Output.line("Signed in as \(account.displayName) (\(account.did))")
        }
        if let previous = signIn.previousGrant { Output.message(Self.replacedMessage(account, previous)) }
        if let missing = account.missingScope {
            Output.message(
                "Warning: the server did not grant \(missing). Calls that need it will be refused; "
                    + "ask again with `atoauth accounts add \(account.displayName) --scope \"\(account.scope) \(missing)\"`."
            )
        }
    }

    /// What became of the session the account had before this sign-in.
    static func replacedMessage(_ account: Account, _ revocation: OAuthSessionManager.RevocationResult) -> String {
        let replaced = "The previous session of \(account.displayName) was replaced"
        switch revocation {
        case .revoked: return replaced + " and its tokens revoked at the authorization server."
        case .notSupported:
            return replaced + "; the authorization server offers no revocation, so its tokens stay valid until "
                + "they expire."
        case .failed(let reason):
            return replaced + ", but its tokens could not be revoked (\(reason)); they stay valid until they expire."
        }
    }

    /// The scope `accounts add` asks for without `--scope`.
    static let defaultScope = "atproto transition:generic"

    /// The command that signs `account` in again with the permissions it had asked for; `--scope` is left out when
    /// they are the default ones.
    static func signInCommand(account: String, scope: String?) -> String {
        let command = "atoauth accounts add \(account)"
        guard let scope, Set(scope.split(separator: " ")) != Set(defaultScope.split(separator: " ")) else {
            return command
        }
        return command + " --scope \"\(scope)\""
    }

    /// The loopback development client, or the hosted client named by `--client-id` / `ATOAUTH_CLIENT_ID`.
    private func client(_ context: CLIContext, redirectURI: URL) async throws -> OAuthClient {
        guard let clientID = global.clientID ?? context.environment["ATOAUTH_CLIENT_ID"].nonEmpty else {
            // A fixed port is registered in the client_id too, for servers that compare redirect URIs exactly.
            return try OAuthClient.loopback(
                redirectURI: redirectURI,
                scope: scope,
                registeringPort: callbackPort != nil
            )
        }
        let url = try CLIContext.url(clientID, option: "--client-id")
        return try await context.accounts.hostedClient(clientID: url, redirectURI: redirectURI, scope: scope)
    }
}
