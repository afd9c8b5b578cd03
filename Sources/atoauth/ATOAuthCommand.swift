import ArgumentParser
import Foundation

/// The `atoauth` root command, and the program's entry point.
@main
struct ATOAuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atoauth",
        abstract: "Sign in to AT Protocol accounts with OAuth and call XRPC with DPoP-bound tokens.",
        discussion: """
            atoauth keeps several accounts in an encrypted store (keyed by a random key file, or by \
            ATOAUTH_PASSPHRASE) and signs every request with a DPoP proof. Tokens and keys are never printed \
            or written in plaintext.

            Global options (--home, --store, --account, --plc-directory, --handle-resolver, \
            --allow-http-loopback, --client-id, --request-timeout, --json, -v) may come before or after the \
            command. Each command takes only those it can \
            use and refuses the others; their ATOAUTH_* variables are read only by the commands that use them.

            Examples:
              atoauth accounts add alice.bsky.social
              atoauth accounts list
              atoauth whoami --json
              atoauth xrpc app.bsky.actor.getProfile \\
                actor=alice.bsky.social
              atoauth gateway   # XRPC over plain HTTP for scripts

            Exit status: 0 success, 1 failed, 2 usage error, 3 sign-in needed, 4 security check failed, \
            130 interrupted.

            Shell completion: atoauth --generate-completion-script bash|zsh|fish
            The man page: atoauth --generate-manual (scripts/install installs both)
            """,
        version: "0.1.0",
        subcommands: [
            AccountsCommand.self, WhoamiCommand.self, XRPCCommand.self, GatewayCommand.self, DoctorCommand.self,
            ClientCommand.self, SandboxCommand.self, DemoCommand.self,
        ]
    )

    @Flag(name: .customLong("generate-manual"), help: .hidden)
    var generateManual = false

    /// Prints the man page with `--generate-manual`, else the help.
    func run() throws {
        guard generateManual else { throw CleanExit.helpRequest(self) }
        Output.bytes(Data(ManualPage.roff().utf8))
    }

    /// argument-parser's `main()`, with what docs/cli.md asks beyond it (``CommandLineContract``).
    static func main() async {
        await CommandLineContract(arguments: Array(CommandLine.arguments.dropFirst())).run()
    }
}
