/// What the user can do about a failure, as data: a front end turns it into its own words and commands.
public enum Remedy: Sendable, Hashable {
    /// Nothing particular: the message says it all.
    case none
    /// Sign in for the first time.
    case signIn
    /// Choose one of the signed-in accounts.
    case chooseAccount
    /// Sign in as the account named, which is not signed in here.
    case signInAs(account: String)
    /// Sign the account in again (any account when `nil`), asking for `scope` again when known; `orSwitch` when
    /// another signed-in account may do instead.
    case signInAgain(account: String?, scope: String?, orSwitch: Bool)
    /// Sign the app-password account in again, with an app password or with OAuth.
    case signInAgainWithAppPassword(account: String)
    /// Sign the account in again as the confidential client `clientID` (with one of its current keys), asking for
    /// `scope` again when known.
    case signInAgainAsClient(account: String, clientID: String, scope: String?)
    /// Sign the account in again with `scope`, which adds the permission a call needs; `nil` when the scope to ask
    /// for is not known.
    case signInWithPermission(account: String, scope: String?)
    /// Give the two-factor sign-in code the server asked for.
    case giveSignInCode
    /// Write the permission in the form the AT Protocol permission specification gives.
    case fixPermission
    /// The store's key comes from a passphrase: give it.
    case givePassphrase
    /// The passphrase given does not open the store: check it.
    case checkPassphrase
    /// The passphrase given cannot be used (empty): give another, or use a key file.
    case giveUsablePassphrase
    /// The store was made with a key file, not a passphrase: stop giving a passphrase.
    case useKeyFile
    /// The key file is missing, unreadable or another store's: point to the one the store was made with.
    case findKeyFile
    /// The port asked for is taken: choose another, or let one be picked.
    case chooseAnotherPort(Int)
    /// Signing in with an app password would replace the account's OAuth session: confirm it, or keep OAuth.
    case confirmReplacingOAuth
    /// A request ran out of time: a slow server may need a longer limit.
    case allowMoreTime
    /// A URL was refused for being on this machine (`http` or a loopback address): a development server there, such
    /// as a sandbox, needs the development option that allows loopback.
    case allowLoopbackServer
}
