import ArgumentParser

/// `atoauth accounts switch`.
struct SwitchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make an account the active one.",
        discussion: """
            Examples:
              atoauth accounts switch bob.bsky.social
              atoauth accounts switch did:plc:ewvi7nxzyoun6zhxrhs64oiz
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The account's handle or DID.", valueName: "handle-or-did"))
    var account: String

    func run() async throws {
        let switched = try await CLIContext.run(global) { try await $0.accounts.switchTo(account) }
        if global.json {
            try Output.json(AccountJSON(switched))
        } else {
            Output.line("Active account: \(switched.displayName) (\(switched.did))")
        }
    }
}
