import AccountManager
import ArgumentParser
import Failures
import OAuthSessionManager
import WireFormat

/// `atoauth accounts upgrade`: moves an app-password account to OAuth.
struct UpgradeCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Move an app-password account to OAuth: sign in in the browser, then end the app-password session.",
        discussion: """
            Signs the account in with OAuth exactly as `atoauth accounts add` does (same options: --scope, \
            --callback-port, --no-browser, --timeout, --client-id), starting from the account's DID so that only \
            that account can complete it. Once the OAuth session is stored, it replaces the app-password session, \
            which is ended at the PDS (com.atproto.server.deleteSession, best effort; reported on stderr, and as \
            previousSession with --json). The account stays active, or not, as it was.

            A failed, denied, timed-out or cancelled upgrade changes nothing: the app-password session stays as it \
            was. An account that already signs in with OAuth is refused (exit 2).

            Example:
              atoauth accounts upgrade alice.bsky.social
            """
    )

    static let globalOptions = AddCommand.globalOptions

    @Argument(
        help: ArgumentHelp("The app-password account's handle or DID.", valueName: "handle-or-did"),
        completion: AccountCompletion.signedIn
    )
    var account: AccountArgument

    @OptionGroup var signIn: BrowserSignInOptions

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        let upgrade = try await CLIContext.run(global) { context in
            try await BrowserSignIn(options: self.signIn, clientID: context.settings.clientID, target: account.text)
                .run(
                    context,
                    SignInSteps(
                        start: {
                            try await context.accounts.authorizeUpgrade(
                                try account.identifier(),
                                client: $0,
                                progress: SignInProgress.onTerminal
                            )
                        },
                        complete: { try await context.accounts.completeUpgrade(callbackURL: $0) }
                    )
                )
        }
        let upgraded = upgrade.account
        try Output.result(
            AccountJSON(upgraded, previousGrant: upgrade.previousGrant),
            json: global.json,
            text: "Upgraded \(upgraded.displayName) (\(upgraded.did)) to OAuth"
        )
        switch upgrade.previousGrant {
        case .revoked?, nil:
            Output.message(Self.deleteAppPasswordReminder)
        case .notSupported?:
            Output.message(
                "The app-password session was replaced here; the PDS offers no way to end it. "
                    + Self.deleteAppPasswordReminder
            )
        case .failed(let reason)?:
            Output.message(
                "The app-password session was replaced here, but the PDS did not confirm ending it. "
                    + Sentence.ended(reason) + " Revoke the app password in the account's settings."
            )
        }
        if let missing = upgraded.missingScope {
            Output.message("Warning: the server did not grant \(missing). Calls that need it will be refused.")
        }
    }

    /// The app password outlives the session made with it: only the account's owner can delete it.
    static let deleteAppPasswordReminder =
        "The app password itself still works: delete it in the account's settings (App Passwords) unless something "
        + "else uses it."
}
