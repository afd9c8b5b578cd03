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
        ),
        transform: PromptChoice.parse
    )
    var prompt: PromptChoice?

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
        ),
        transform: ClientKeyArgument.parse
    )
    var clientKey: ClientKeyArgument?

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

    /// Refuses options that do not go together, with the first conflict found.
    func validate() throws {
        let browserless = "--app-password signs in without a browser:"
        try ValidationError.refuseFirst(of: [
            (
                clientKey != nil && (appPassword || createAccount),
                "--client-key signs in as a confidential client; --app-password and --create-account do not apply."
            ),
            (
                clientKey != nil && signIn.callbackPort != nil,
                "--client-key uses the client's own https redirect, and the address is pasted: --callback-port does "
                    + "not apply."
            ),
            (redirectURI != nil && clientKey == nil, "--redirect-uri goes with --client-key."),
            (
                appPassword && (createAccount || prompt != nil),
                "\(browserless) --create-account and --prompt do not apply."
            ),
            (
                createAccount && prompt != nil,
                "--create-account asks the server for its sign-up (prompt=create); leave --prompt out."
            ),
            (
                replace && !appPassword,
                "--replace goes with --app-password; an OAuth sign-in replaces the account's session without it."
            ),
            (
                appPassword && (signIn.anyGiven || global.clientID != nil),
                "\(browserless) --scope, --callback-port, --no-browser, --timeout and --client-id do not apply to it."
            ),
        ])
    }

    func run() async throws {
        // An app-password sign-in uses no OAuth client, so ATOAUTH_CLIENT_ID is not read (nor refused) for it.
        var environment = ProcessInfo.processInfo.environment
        if appPassword, let name = GlobalOption.clientID.variable { environment[name] = nil }
        let signIn = try await CLIContext.run(global, environment: environment) { context in
            if appPassword {
                return try await AppPasswordSignIn(account: identifier, replacingOAuth: replace).run(context)
            }
            let prompt = createAccount ? SignInPrompt.create : prompt?.prompt
            // Either way the sign-in is sent and completed the same: only how the redirect comes back differs.
            let steps = SignInSteps(
                start: { client in
                    try await context.accounts.authorize(
                        identifier,
                        client: client,
                        prompt: prompt,
                        progress: SignInProgress.onTerminal
                    )
                },
                complete: { try await context.accounts.callback($0) }
            )
            if let clientKey {
                guard let clientID = context.settings.clientID else {
                    throw CLIFailure(
                        status: .usage,
                        message: "--client-key needs the confidential client's --client-id (or ATOAUTH_CLIENT_ID)."
                    )
                }
                let pasted = OperatorSignIn(
                    options: self.signIn,
                    clientID: clientID,
                    clientKey: clientKey,
                    redirectURI: redirectURI?.url
                )
                return try await pasted.run(context, steps)
            }
            let browser = BrowserSignIn(options: self.signIn, clientID: context.settings.clientID, target: identifier)
            return try await browser.run(context, steps)
        }
        try Self.report(signIn, json: global.json)
    }
}
