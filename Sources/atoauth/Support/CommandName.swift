import ArgumentParser

extension ParsableCommand {
    /// The name the command is typed as: every command of atoauth sets its `commandName`, so none falls back to one
    /// derived from its type.
    static var name: String {
        guard let name = configuration.commandName else {
            preconditionFailure("\(Self.self) sets no commandName")
        }
        return name
    }
}
