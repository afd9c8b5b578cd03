import Failures

/// What the tool tells a user to do about a failure, one sentence per remedy.
///
/// The sentences name the commands and variables that apply the remedy. Every error reaches the user through ``CLIFailure``, which adds this after the error's own message.
enum RemedyText {
    /// `message` followed by the advice for a request that ran out of time, when it tells of one (the transport's
    /// own words, kept by the errors that wrap it, such as a handle or DID document that could not be fetched during
    /// a sign-in) without that advice; otherwise `message` unchanged.
    static func withRequestTimeoutAdvice(_ message: String) -> String {
        guard message.contains("the server is slow or unreachable"), !message.contains("--request-timeout") else {
            return message
        }
        return message + " " + text(for: .allowMoreTime)
    }

    /// The sentence for `remedy`; empty for ``Remedy/none``.
    static func text(for remedy: Remedy) -> String {
        switch remedy {
        case .none: ""
        case .signIn: "Sign in with `atoauth accounts add <handle>`."
        case .chooseAccount:
            "Choose one with `atoauth accounts switch <handle>` (`atoauth accounts list` shows them), or name it "
                + "with `--account`."
        case .signInAs(let account):
            "Sign in with `atoauth accounts add \(ShellWords.quoted(account))`, or see the signed-in accounts with "
                + "`atoauth accounts list`."
        case .signInAgain(nil, _, _): "Sign in again with `atoauth accounts add <handle>`."
        case .signInAgain(let account?, let scope, let orSwitch):
            // The exact command that signs the same account in with the same permissions.
            "Sign in again with `\(AddCommand.signInCommand(account: account, scope: scope))`"
                + (orSwitch ? ", or switch to another account with `atoauth accounts switch <handle>`." : ".")
        case .signInAgainAsClient(let account, let clientID, let scope):
            "Sign in again as the same client: `\(AddCommand.signInCommand(account: account, scope: scope)) "
                + "--client-id \(ShellWords.quoted(clientID)) --client-key <kid>`, with a key the client publishes "
                + "(`atoauth client keys` lists them)."
        case .signInAgainWithAppPassword(let account):
            "Sign in again with `atoauth accounts add \(ShellWords.quoted(account)) --app-password`, or move it to "
                + "OAuth with `atoauth accounts add \(ShellWords.quoted(account))`."
        case .signInWithPermission(let account, let scope?):
            "Sign in again with it: " + AddCommand.signInCommand(account: account, scope: scope)
        case .signInWithPermission(let account, nil):
            "Sign in again with the permissions it needs: atoauth accounts add \(ShellWords.quoted(account)) --scope …"
        case .giveSignInCode:
            "Set \(AppPasswordSignIn.authFactorVariable) to the code, or type it on standard input after the app "
                + "password."
        case .fixPermission: PermissionHelp.examples
        case .giveUsablePassphrase:
            "Set \(StoreEnvironment.passphraseVariable) to a non-empty passphrase, or unset it to use a key file."
        case .checkPassphrase: "Check \(StoreEnvironment.passphraseVariable) and try again."
        case .givePassphrase: "Set \(StoreEnvironment.passphraseVariable) to its passphrase."
        case .useKeyFile:
            "Unset \(StoreEnvironment.passphraseVariable) (and set \(StoreEnvironment.keyFileVariable) if the key file "
                + "is not in the default place)."
        case .findKeyFile:
            "Point \(StoreEnvironment.keyFileVariable) at the key file that was used to create the keystore."
        case .chooseAnotherPort:
            "Choose another port, or leave the option out to use a free one."
        case .allowLoopbackServer:
            "For a development server on this machine (such as atoauth sandbox), give --allow-http-loopback (or set "
                + "ATOAUTH_ALLOW_HTTP_LOOPBACK=1)."
        case .allowMoreTime:
            "A slow server may need more time: --request-timeout SECONDS (or ATOAUTH_REQUEST_TIMEOUT; default 30)."
        case .confirmReplacingOAuth:
            "Add --replace to replace it anyway, or keep the OAuth session (`atoauth accounts status` shows its "
                + "permissions)."
        }
    }
}
