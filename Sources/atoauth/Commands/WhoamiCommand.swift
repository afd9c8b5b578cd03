import ATClient
import AccountManager
import ArgumentParser

/// `atoauth whoami`.
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Ask the account's PDS who the session belongs to (com.atproto.server.getSession).",
        discussion: """
            Refreshes the session first when its access token is about to expire. Exits 3 when no account is
            signed in or the session was revoked.

            Examples:
              atoauth whoami
              atoauth whoami --account bob.bsky.social --json
            """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let (info, account) = try await CLIContext.run(global) { context in
            let account = try await context.accounts.account(context.selectedAccount)
            let client = try await context.accounts.client(for: account.did.rawValue)
            return (try await client.getSession(), account)
        }
        if global.json {
            try Output.json(["did": info.did, "handle": info.handle, "pds": account.pds.absoluteString])
        } else {
            Output.line("\(info.handle) \(info.did) \(account.pds.absoluteString)")
        }
    }
}
