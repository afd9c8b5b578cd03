import ArgumentParser

extension ValidationError {
    /// Refuses the first of `conflicts` that holds, with its sentence: how a command's `validate()` lists the options
    /// that do not go together, in the order they are checked.
    static func refuseFirst(of conflicts: [(holds: Bool, sentence: String)]) throws {
        if let conflict = conflicts.first(where: \.holds) { throw ValidationError(conflict.sentence) }
    }
}
