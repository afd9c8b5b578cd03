import ArgumentParser

/// `atoauth accounts …`: sign in, list, switch and remove accounts.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "Sign in to accounts, list them, switch between them, move them to OAuth, and remove them.",
        subcommands: [
            AddCommand.self, ListCommand.self, StatusCommand.self, SwitchCommand.self, UpgradeCommand.self,
            RemoveCommand.self,
        ],
        defaultSubcommand: ListCommand.self
    )
}
