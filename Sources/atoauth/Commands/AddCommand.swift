import ATProtoPermissions
import AccountManager
import ArgumentParser
import Foundation
import OAuthMetadata
import OAuthSessionManager

/// `atoauth accounts add`.
struct AddCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Sign in to an account with OAuth in the browser (or an app password) and make it active.",
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

            --create-account signs up: given a server's address (https://…), it asks that server's authorization \
            server for its sign-up page (prompt=create), then signs the new account in; a server that does not list \
            create in prompt_values_supported is told apart before anything is sent. --prompt login|consent| \
            select_account passes the other prompt values on (OpenID Connect), for example to choose among the \
            accounts signed in at the server.

            Signing in to an account that already has a session here replaces it and revokes the old grant at \
            its authorization server (best effort; reported on stderr, and as previousSession with --json).

            With --app-password, signs in the legacy way instead (com.atproto.server.createSession), for a handle \
            or DID: the password comes from ATOAUTH_APP_PASSWORD or one line on stdin (not echoed on a terminal), \
            never from the command line. When the server asks for a two-factor sign-in code \
            (AuthFactorTokenRequired), it comes from ATOAUTH_AUTH_FACTOR or the next line on stdin. The account \
            is checked as for OAuth, the password is not stored, and the session's JWTs are stored encrypted; \
            `atoauth accounts upgrade` moves it to OAuth later. An account signed in here with OAuth keeps that \
            session unless --replace is given, since an app-password session is not limited to the permissions \
            granted; the refusal comes before any password is asked for or sent.

            With --client-key, signs the account in as a confidential client (private_key_jwt), for a service or \
            a bot whose sessions must last: --client-id names the service's web client metadata document, and \
            --client-key a private key file (a JWK or PEM, added to the store's key set) or the kid of a key \
            already there (see `atoauth client keygen`), which the document must publish. The browser ends on the \
            service's own https redirect page (--redirect-uri when the document lists several, such as a page that \
            only shows its address): paste that address here. Every request to the authorization server then \
            carries a new assertion signed by that key, and the session stays bound to it (`accounts status` \
            shows it).

            Examples:
              atoauth accounts add alice.bsky.social
              atoauth accounts add did:plc:ewvi7nxzyoun6zhxrhs64oiz \\
                --scope "atproto transition:generic"
              atoauth accounts add https://bsky.social --no-browser
              atoauth accounts add alice.bsky.social --scope \\
                "atproto repo:app.bsky.feed.post blob:image/*"
              ATOAUTH_APP_PASSWORD=xxxx-xxxx-xxxx-xxxx \\
                atoauth accounts add alice.bsky.social --app-password
              atoauth accounts add https://pds.example.com --create-account
              atoauth accounts add alice.bsky.social --prompt select_account
              atoauth accounts add bot.example.com --client-key client-key.jwk \\
                --client-id https://bot.example.com/client-metadata.json

            Ask for exactly the permissions the work needs (atproto.com/specs/permission): repo:<collection> \
            with ?action=create|update|delete, blob:<mime pattern>, rpc:<method>?aud=<did>#<service>, \
            account:email|repo, identity:handle|*, include:<permission set>, or the broad transition:generic. \
            When the server grants less than asked, a warning names what is missing.
            """
    )

    /// Signing in resolves the account and talks to its servers; it acts as no existing account, so no `--account`.
    static let globalOptions = GlobalOption.store.union([
        .plcDirectory, .handleResolver, .allowHTTPLoopback, .clientID, .requestTimeout,
    ])

    @Argument(help: ArgumentHelp("A handle, a DID, or a PDS or entryway URL.", valueName: "handle | did | https://pds"))
    var identifier: String

    @OptionGroup var signIn: BrowserSignInOptions

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Sign in with an app password instead (com.atproto.server.createSession), from ATOAUTH_APP_PASSWORD or "
                + "one line on stdin; a 2FA code from ATOAUTH_AUTH_FACTOR or the next line."
        )
    )
    var appPassword = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Sign up: create an account on the server given (https://…), then sign in to it; only where its "
                + "authorization server offers sign-up (prompt=create)."
        )
    )
    var createAccount = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What the authorization server shows: login (sign in again), consent (ask again) or select_account.",
            valueName: "login|consent|select_account"
        )
    )
    var prompt: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "With --app-password: replace the account's OAuth session, which is refused without it (an app-password "
                + "session is not limited to the permissions granted)."
        )
    )
    var replace = false

    @Option(
        name: .long,
        parsing: .unconditional,  // A kid may begin with "-".
        help: ArgumentHelp(
            "Sign in as the confidential client --client-id names (private_key_jwt), with this key: a private JWK or "
                + "PEM file (added to the store's key set), or the kid of a key already there.",
            valueName: "file-or-kid"
        )
    )
    var clientKey: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --client-key: the client's redirect URI to use, when its document has several (its page that shows "
                + "its own address, for pasting here).",
            valueName: "url"
        ),
        transform: HTTPURL.parse
    )
    var redirectURI: HTTPURL?

    @OptionGroup var global: GlobalOptions<Self>

    func validate() throws {
        if clientKey != nil, appPassword || createAccount {
            throw ValidationError(
                "--client-key signs in as a confidential client; --app-password and --create-account do not apply."
            )
        }
        if clientKey != nil, signIn.callbackPort != nil {
            throw ValidationError(
                "--client-key uses the client's own https redirect, and the address is pasted: --callback-port does "
                    + "not apply."
            )
        }
        if redirectURI != nil, clientKey == nil {
            throw ValidationError("--redirect-uri goes with --client-key.")
        }
        if appPassword, createAccount || prompt != nil {
            throw ValidationError(
                "--app-password signs in without a browser: --create-account and --prompt do not apply."
            )
        }
        if createAccount, prompt != nil {
            throw ValidationError(
                "--create-account asks the server for its sign-up (prompt=create); leave --prompt out."
            )
        }
        if let prompt, SignInPrompt(rawValue: prompt) == nil || prompt == SignInPrompt.create.rawValue {
            throw ValidationError(
                "--prompt takes login, consent or select_account, not “\(prompt)”"
                    + (prompt == "create" ? "; to sign up, use --create-account." : ".")
            )
        }
        if replace, !appPassword {
            throw ValidationError(
                "--replace goes with --app-password; an OAuth sign-in replaces the account's session without it."
            )
        }
        if appPassword, signIn.isCustomized || global.clientID != nil {
            throw ValidationError(
                "--app-password signs in without a browser: --scope, --callback-port, --no-browser, --timeout and "
                    + "--client-id do not apply to it."
            )
        }
    }

    func run() async throws {
        let signIn = try await CLIContext.run(global) { context in
            if appPassword {
                return try await AppPasswordSignIn(account: identifier, replacingOAuth: replace).run(context)
            }
            let prompt = createAccount ? SignInPrompt.create : prompt.flatMap(SignInPrompt.init(rawValue:))
            // Either way the sign-in is sent and completed the same: only how the redirect comes back differs.
            let start: (OAuthClient) async throws -> AuthorizationRequest = { client in
                try await context.accounts.authorize(
                    identifier,
                    client: client,
                    prompt: prompt,
                    progress: SignInProgress.onTerminal
                )
            }
            let complete: (URL) async throws -> AccountSignIn = { try await context.accounts.callback($0) }
            if let clientKey {
                guard let clientID = context.settings.clientID else {
                    throw CLIFailure(
                        status: CLIFailure.usage,
                        message: "--client-key needs the confidential client's --client-id (or ATOAUTH_CLIENT_ID)."
                    )
                }
                return try await OperatorSignIn(
                    options: self.signIn,
                    clientID: clientID,
                    clientKey: clientKey,
                    redirectURI: redirectURI?.url
                ).run(
                    context,
                    start: start,
                    complete: complete
                )
            }
            return try await BrowserSignIn(
                options: self.signIn,
                clientID: context.settings.clientID,
                target: identifier
            ).run(
                context,
                start: start,
                complete: complete
            )
        }
        try Self.report(signIn, json: global.json)
    }

    /// Prints a completed sign-in: the account (as JSON with `--json`), what became of its previous session, and a
    /// warning naming permissions the server did not grant.
    static func report(_ signIn: AccountSignIn, json: Bool) throws {
        let account = signIn.account
        if json {
            var object = AccountJSON(account)
            object.previousSession = signIn.previousGrant.map(RevocationText.word)
            try Output.json(object)
        } else {
            Output.line("Signed in as \(account.displayName) (\(account.did))")
        }
        if let previous = signIn.previousGrant { Output.message(replacedMessage(account, previous)) }
        if let missing = account.missingScope {
            Output.message(
                "Warning: the server did not grant \(missing). Calls that need it will be refused; "
                    + "ask again with `\(signInCommand(account: account.displayName, scope: account.scope + " " + missing))`."
            )
        }
    }

    /// What became of the session the account had before this sign-in.
    static func replacedMessage(_ account: Account, _ revocation: Revocation) -> String {
        let replaced = "The previous session of \(account.displayName) was replaced"
        switch revocation {
        case .revoked: return replaced + " and its tokens revoked at the server that issued them."
        case .notSupported:
            return replaced + "; the server that issued its tokens offers no way to revoke them, so they stay "
                + "valid until they expire."
        case .failed(let reason):
            return replaced + ", but its tokens could not be revoked (\(reason)); they stay valid until they expire."
        }
    }

    /// The scope `accounts add` asks for without `--scope`.
    static let defaultScope = "atproto transition:generic"

    /// The command that signs `account` in again with the permissions `scope` names; `--scope` is left out when
    /// they are the default ones.
    ///
    /// The scope may come from a server (a grant, a `ScopeMissingError`), so the command holds only the permissions
    /// that parse, in canonical form (atproto.com/specs/permission), and every word is shell-quoted: pasted into a
    /// shell, it can run nothing but atoauth.
    static func signInCommand(account: String, scope: String?) -> String {
        let command = "atoauth accounts add " + ShellWords.quoted(account)
        let permissions = ScopeSet(granted: scope ?? "").permissions
        guard !permissions.isEmpty, ScopeSet(permissions) != ScopeSet(granted: defaultScope) else { return command }
        return command + " --scope " + ShellWords.quoted(ScopeSet(permissions).description)
    }
}
