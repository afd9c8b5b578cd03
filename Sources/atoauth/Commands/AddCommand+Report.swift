import ATProtoPermissions
import AccountManager
import ArgumentParser
import Foundation
import OAuthMetadata
import OAuthSessionManager

extension AddCommand {
    /// Prints a completed sign-in: the account (as JSON with `--json`), what became of its previous session, and a
    /// warning naming permissions the server did not grant.
    static func report(_ signIn: AccountSignIn, json: Bool) throws {
        let account = signIn.account
        try Output.result(
            AccountJSON(account, previousGrant: signIn.previousGrant),
            json: json,
            text: "Signed in as \(account.displayName) (\(account.did))"
        )
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
