import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import OAuthSessionManager

/// `atoauth accounts status`.
struct StatusCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show an account's session: server, permissions, token expiry and age; never a secret.",
        discussion: discussion
    )

    /// Reads the stored session, and with `--check` sends a request as the account (which may refresh it).
    static let globalOptions = GlobalOption.signedInRequests

    @Argument(
        help: ArgumentHelp("The account's handle or DID (default: the active account).", valueName: "handle-or-did"),
        completion: AccountCompletion.signedIn
    )
    var account: AccountArgument?

    @Flag(name: .long, help: "Show every account signed in here.")
    var all = false

    @Flag(name: .long, help: "Ask the PDS whether each session is still valid (com.atproto.server.getSession).")
    var check = false

    @OptionGroup var global: GlobalOptions<Self>

    func validate() throws {
        if all, account != nil || global.account != nil {
            throw ValidationError("--all shows every account; name none with it.")
        }
    }

    func run() async throws {
        let (statuses, unreadable) = try await CLIContext.run(global) { context in
            let accounts: [Account]
            var unreadable: [UnreadableSession] = []
            if all {
                let listing = try await context.accounts.accountListing()
                accounts = listing.accounts
                unreadable = listing.unreadable
            } else {
                accounts = [
                    try await context.accounts.account(
                        try self.account?.identifier() ?? context.settings.selectedAccount()
                    )
                ]
            }
            var statuses: [SessionStatus] = []
            for account in accounts {
                var session = try await context.accounts.restore(.did(account.did)).session
                let checked = check ? await SessionCheck.run(account, accounts: context.accounts) : nil
                // The check may have refreshed the session: it is shown as it is now, not as it was.
                if checked?.result == .valid, let current = try? await context.accounts.restore(.did(account.did)) {
                    session = current.session
                }
                var status = SessionStatus(account: account, session: session, now: Date())
                status.check = checked
                statuses.append(status)
            }
            return (statuses, unreadable)
        }
        if global.json, !all {
            try Output.json(statuses[0])
        } else {
            try ReadableOrNot.print(statuses, unreadable: unreadable, json: global.json) {
                if !statuses.isEmpty { Output.line(statuses.map(\.text).joined(separator: "\n\n")) }
            }
        }
        let results = statuses.compactMap { $0.check?.result }
        if results.contains(.ended) { throw ExitCode.signInNeeded }
        if results.contains(.failed) { throw ExitCode.failed }
    }
}
