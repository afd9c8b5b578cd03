/// What the authorization server is asked to show (the `prompt` parameter of OpenID Connect Core §3.1.2.1, and
/// `create` from OpenID Connect Prompt Create §4), as the reference TypeScript client passes it through.
public enum SignInPrompt: String, Sendable, Hashable, CaseIterable {
    /// Ask the user to sign in again, even with a session at the server.
    case login
    /// Ask for consent again, even when it was given before.
    case consent
    /// Let the user choose among the accounts signed in at the server.
    case selectAccount = "select_account"
    /// Sign up: create an account, then authorize it. Only where the server lists `create` in
    /// `prompt_values_supported`; the sign-in starts from a server, since the account does not exist yet.
    case create
}
