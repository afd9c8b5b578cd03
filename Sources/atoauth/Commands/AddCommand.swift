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
        discussion: discussion
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
                        status: .usage,
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
}
