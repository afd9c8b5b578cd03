import ArgumentParser

/// `atoauth accounts remove`.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Sign an account out: revoke its tokens, then delete its session and DPoP key.",
        discussion: """
            Revocation is best effort: when the authorization server cannot be reached, the account is removed
            here anyway and atoauth says so.

            Example:
              atoauth accounts remove alice.bsky.social
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The account's handle or DID.", valueName: "handle-or-did"))
    var account: String

    func run() async throws {
        let (removed, revocation) = try await CLIContext.run(global) { try await $0.accounts.revoke(account) }
        let revoked: String
        switch revocation {
        case .revoked: revoked = "revoked"
        case .notSupported: revoked = "not supported by the server"
        case .failed(let reason):
            revoked = "failed"
            Output.message("Could not revoke the tokens at the authorization server (\(reason)); removed here anyway.")
        }
        if global.json {
            try Output.json(["did": removed.did.rawValue, "handle": removed.handle?.description, "revocation": revoked])
        } else {
            Output.line("Removed \(removed.displayName) (\(removed.did)); revocation: \(revoked).")
        }
    }
}
