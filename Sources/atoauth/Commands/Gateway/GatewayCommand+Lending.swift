import ATProtoSyntax
import AccountManager
import Foundation
import Logging

extension GatewayCommand {
    /// The accounts the gateway lends, each of which must be signed in: the fallback for requests that name none
    /// (`--account` or `ATOAUTH_ACCOUNT`, by its DID; else `nil`, the account active at the time of each request) and
    /// the accounts of `--allow-account` (`nil` for every account).
    func lentAccounts(
        _ context: CLIContext,
        log: Logger
    ) async throws -> (fallback: ATIdentifier?, allowed: Set<DID>?) {
        var fallback: ATIdentifier?
        if let account = try context.settings.selectedAccount() {
            fallback = .did(try await context.accounts.account(account).did)
        } else if try await context.accounts.accounts().isEmpty {
            note(
                "Note: no account is signed in here yet; calls are refused with AccountNotSignedIn until one is "
                    + "(atoauth accounts add <handle>).",
                log: log
            )
        }
        guard !options.allowAccount.isEmpty else { return (fallback, nil) }
        var allowed: Set<DID> = []
        for name in options.allowAccount {
            let account = try name.identifier()
            allowed.insert(try await context.accounts.account(account).did)
        }
        return (fallback, allowed)
    }
}
