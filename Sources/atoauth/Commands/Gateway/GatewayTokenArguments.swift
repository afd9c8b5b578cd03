import ArgumentParser

/// A `gateway token` subcommand's arguments as they were given.
///
/// `atoauth gateway` has options of its own, its global options among them (`--account`, `--json`, `--home`,
/// `--store`), and the argument parser gives a command's options to it wherever they stand, even after a subcommand's
/// name: the subcommand would never see them. A `gateway token` subcommand reads its arguments again, from the words
/// after its own name, so that `atoauth gateway token create ci --account a --account b --json` means what it says.
enum GatewayTokenArguments {
    /// `Command` parsed from the words after `gateway token <name or alias>` (the global options given before them
    /// included, as ``GlobalOptionPlacement`` places them).
    static func reparsed<Command: AsyncParsableCommand>(_ type: Command.Type) async throws -> Command {
        let given = Array(CommandLine.arguments.dropFirst())
        var arguments = GlobalOptionPlacement.normalize(given)
        guard let gateway = arguments.firstIndex(of: GatewayCommand.configuration.commandName ?? "gateway"),
            arguments.index(after: gateway) < arguments.endIndex,
            arguments[arguments.index(after: gateway)] == GatewayTokenCommand.configuration.commandName
        else { return try await Command.asyncParse(Array(given)) }
        arguments.removeSubrange(...arguments.index(after: gateway))
        let names = [Command.configuration.commandName].compactMap { $0 } + Command.configuration.aliases
        if let name = arguments.firstIndex(where: names.contains) { arguments.remove(at: name) }
        return try await Command.asyncParse(arguments)
    }
}
