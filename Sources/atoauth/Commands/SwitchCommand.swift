import AccountManager
import ArgumentParser

/// `atoauth accounts switch`.
struct SwitchCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make an account the active one.",
        discussion: """
            Sends nothing. With --json, prints the account as `accounts list --json` describes it.

            Examples:
              atoauth accounts switch bob.bsky.social
              atoauth accounts switch did:plc:ewvi7nxzyoun6zhxrhs64oiz
            """
    )

    /// Switching names its account as the argument and sends nothing.
    static let globalOptions = GlobalOption.store

    @Argument(help: ArgumentHelp("The account's handle or DID.", valueName: "handle-or-did"))
    var account: String

    @OptionGroup var global: GlobalOptions<Self>
    func run() async throws {
        let switched = try await CLIContext.run(global) {
            try await $0.accounts.switchTo(try AccountName.identifier(account))
        }
        if global.json {
            try Output.json(AccountJSON(switched))
        } else {
            Output.line("Active account: \(switched.displayName) (\(switched.did))")
        }
    }
}
