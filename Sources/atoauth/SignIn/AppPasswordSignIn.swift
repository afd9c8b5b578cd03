import ATProtoSyntax
import AccountManager
import Foundation
import OAuthSessionManager

/// `accounts add <handle | did> --app-password`: a legacy app-password session beside OAuth.
///
/// The password comes from `ATOAUTH_APP_PASSWORD` or one line on standard input, never from the command line, and a
/// two-factor sign-in code from `ATOAUTH_AUTH_FACTOR` or the next line; both variables are removed from this
/// process's environment once read, so no child process ever inherits them.
struct AppPasswordSignIn {
    /// The account's handle or DID.
    let account: String
    /// Whether an OAuth session of the account may be replaced (`--replace`).
    var replacingOAuth = false

    /// The variable holding the app password.
    static let passwordVariable = "ATOAUTH_APP_PASSWORD"
    /// The variable holding the sign-in code of a two-factor sign-in.
    static let authFactorVariable = "ATOAUTH_AUTH_FACTOR"

    func run(_ context: CLIContext) async throws -> AccountSignIn {
        // The account is checked before anything secret is asked for.
        guard !account.contains("://") else {
            throw CLIFailure(
                status: .usage,
                message: "An app-password sign-in needs the account's handle or DID, not a server address."
            )
        }
        let identifier = try ATIdentifier(typed: account)
        // Refused before the password is asked for; the library checks again once the handle is resolved.
        if !replacingOAuth, let existing = try? await context.accounts.account(identifier), existing.kind == .oauth {
            throw SessionError.oauthSessionKept(account: existing.displayName, scope: existing.scope)
        }
        let input = SecretInput()
        let environment = context.environment
        for name in [Self.passwordVariable, Self.authFactorVariable] { unsetenv(name) }
        let password: String
        if let fromEnvironment = environment[Self.passwordVariable].nonEmpty {
            password = fromEnvironment
        } else if let typed = try await input.next("app password", prompt: "App password for \(account)"),
            !typed.isEmpty
        {
            password = typed
        } else {
            throw CLIFailure(
                status: .usage,
                message: "No app password was given. Set \(Self.passwordVariable), or type it on standard input "
                    + "(create one in your account's settings under App Passwords)."
            )
        }
        let code = environment[Self.authFactorVariable].nonEmpty
        return try await context.accounts.signInWithAppPassword(
            identifier,
            password: password,
            replacingOAuth: replacingOAuth
        ) {
            if let code { return code }
            Output.message("The server sent a sign-in code to the account's email address.")
            return try await input.next("sign-in code", prompt: "Sign-in code for \(account)")
        }
    }
}
