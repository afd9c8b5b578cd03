import ArgumentParser

/// The `atoauth` command: signs in to AT Protocol accounts with OAuth and calls XRPC with DPoP-bound tokens.
@main
struct ATOAuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atoauth",
        abstract: "Sign in to AT Protocol accounts with OAuth and call XRPC with DPoP-bound tokens.",
        discussion: """
            atoauth keeps several accounts in an encrypted store and signs every request with a DPoP proof.
            The account commands (accounts add/list/switch/remove, whoami, xrpc) arrive with their issues.
            """,
        version: "0.1.0"
    )
}
