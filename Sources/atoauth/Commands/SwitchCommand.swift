import ATProtoSyntax
import AccountManager
import ArgumentParser

/// `atoauth accounts switch`.
struct SwitchCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make an account the active one.",
        discussion: """
            Sends nothing. With --json, prints the account as `accounts list --json` describes it. Without an \
            account: with exactly two signed in, switches to the other one (as `gh auth switch` does); with one or \
            more than two, lists them and asks for one (exit 2). A name that matches no signed-in account gets the closest one \
            that is (`switch alice` → alice.bsky.social).

            Examples:
              atoauth accounts switch bob.bsky.social
              atoauth accounts switch did:plc:ewvi7nxzyoun6zhxrhs64oiz
              atoauth accounts switch
            """
    )

    /// Switching names its account as the argument and sends nothing.
    static let globalOptions = GlobalOption.store

    @Argument(
        help: ArgumentHelp(
            "The account's handle or DID; without it, the other of two signed-in accounts.",
            valueName: "handle-or-did"
        ),
        completion: AccountCompletion.signedIn
    )
    var account: AccountArgument?

    @OptionGroup var global: GlobalOptions<Self>
    func run() async throws {
        let switched = try await CLIContext.run(global) { context in
            guard let account else { return try await Self.switchToOther(context.accounts) }
            return try await context.accounts.switchTo(try account.identifier())
        }
        try Output.result(
            AccountJSON(switched),
            json: global.json,
            text: "Active account: \(switched.displayName) (\(switched.did))"
        )
    }

    /// `switch` alone: the other account when exactly two are signed in; else the accounts to choose from.
    static func switchToOther(_ accounts: AccountManager) async throws -> Account {
        let all = try await accounts.accounts()
        guard !all.isEmpty else { throw AccountError.noAccounts }
        if all.count == 2, let other = all.first(where: { !$0.active }), all.contains(where: \.active) {
            return try await accounts.switchTo(.did(other.did))
        }
        let listed = all.map { "  \($0.active ? "*" : " ") \($0.displayName)" }.joined(separator: "\n")
        let what = all.count == 1 ? "Only one account is signed in" : "\(all.count) accounts are signed in"
        throw CLIFailure(
            status: .usage,
            message: "\(what); name the one to make active, as in `atoauth accounts switch <handle>`:\n\(listed)"
        )
    }
}
