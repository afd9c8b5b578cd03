extension ManualPage {
    /// The options most commands share (the global options, which argument-parser repeats in every command that
    /// declares them, hidden where they do not apply), so the page describes each once.
    ///
    /// An option counts as shared when more than half of the commands with options declare it. Where a command
    /// describes it in words of its own (`client metadata --client-id`), that command lists it with its own options.
    struct SharedOptions {
        /// One description of each shared option, in the order they first appear: the one most commands give.
        private(set) var arguments: [CommandDescription.Argument] = []
        private var abstracts: [String: String] = [:]

        init(_ commands: [CommandDescription]) {
            let withOptions = commands.filter { command in
                (command.arguments ?? []).contains { !Self.isBuiltIn($0) }
            }
            var order: [String] = []
            var declared: [String: [CommandDescription.Argument]] = [:]
            for argument in withOptions.flatMap({ $0.arguments ?? [] })
            where argument.kind != "positional" && !Self.isBuiltIn(argument) {
                if declared[argument.key] == nil { order.append(argument.key) }
                declared[argument.key, default: []].append(argument)
            }
            for key in order {
                guard let all = declared[key], all.count * 2 > withOptions.count else { continue }
                // The words most commands give; on a tie, those that came first.
                let texts = all.map { $0.abstract ?? "" }
                let common = texts.max { first, second in
                    texts.count(where: { $0 == first }) < texts.count(where: { $0 == second })
                }
                guard let common, var argument = all.first(where: { ($0.abstract ?? "") == common }) else { continue }
                argument.shouldDisplay = true
                arguments.append(argument)
                abstracts[key] = common
            }
        }

        /// Whether `argument` is a shared option described here (and not in words of its command's own).
        func describes(_ argument: CommandDescription.Argument) -> Bool {
            abstracts[argument.key].map { $0 == argument.abstract ?? "" } ?? false
        }

        /// `--help` and `--version`, which argument-parser gives every command: the page names them once.
        static func isBuiltIn(_ argument: CommandDescription.Argument) -> Bool {
            ["--help", "--version"].contains(argument.key)
        }
    }
}
