/// Lets the global options come before the subcommand (`atoauth -v whoami`) as well as after it.
enum GlobalOptionPlacement {
    static let flags: Set<String> = ["--json", "-v", "--verbose", "--allow-http-loopback"]
    static let options: Set<String> = [
        "--home", "--store", "--account", "--plc-directory", "--handle-resolver", "--client-id",
    ]

    /// Moves global options found before the first subcommand word to the end of the arguments.
    static func normalize(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            if flags.contains(argument) || (options.contains(name) && argument.contains("=")) {
                leading.append(argument)
                index += 1
            } else if options.contains(argument), index + 1 < arguments.endIndex {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.endIndex else { return arguments }
        return Array(arguments[index...]) + leading
    }
}
