import ArgumentParser

/// `atoauth-bench`: measures what DPoP costs a client, in one run, as ratios to baselines of the same run.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atoauth-bench",
        abstract: "Measure atoauth's DPoP, refresh, keystore and CLI costs against baselines of the same run.",
        discussion: """
            Prints a Markdown table of figures, ratios and goals. Exits non-zero only when a measurement cannot
            run (a crash, a server that does not start, a command that fails) or when the refresh storm makes
            other than exactly one refresh; never because of a time.

            Build it in release mode: swift build -c release --product atoauth-bench
            """,
        subcommands: [RunCommand.self, ServePlainCommand.self, ServeGatewayCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
