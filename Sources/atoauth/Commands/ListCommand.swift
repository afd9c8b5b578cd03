import AccountManager
import ArgumentParser

/// `atoauth accounts list`.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the signed-in accounts; * marks the active one.",
        discussion: """
            One line per account: `* <handle> <did> <pds>`. With --json, an array of objects with did, handle,
            pds, issuer, scope, permissions (the granted ones, one each), notGranted, active and kind.

            Examples:
              atoauth accounts list
              atoauth accounts list --json | jq -r '.[] | select(.active) | .did'
            """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let accounts = try await CLIContext.run(global) { try await $0.accounts.accounts() }
        if global.json {
            try Output.json(accounts.map(AccountJSON.init))
        } else if accounts.isEmpty {
            Output.message("No accounts. Sign in with: atoauth accounts add <handle>")
        } else {
            for account in accounts {
                Output.line(
                    "\(account.active ? "*" : " ") \(account.handle?.description ?? "-") \(account.did) \(account.pds.absoluteString)"
                )
            }
        }
    }
}

/// The stable JSON shape of an account.
struct AccountJSON: Encodable {
    var did: String
    var handle: String?
    var pds: String
    var issuer: String
    var scope: String
    /// The granted permissions, one canonical token each.
    var permissions: [String]
    /// Requested permissions the server did not grant.
    var notGranted: [String]
    var active: Bool
    /// `oauth`; app-password sessions will say `app-password`.
    var kind = "oauth"

    init(_ account: Account) {
        did = account.did.rawValue
        handle = account.handle?.description
        pds = account.pds.absoluteString
        issuer = account.issuer
        scope = account.scope
        permissions = account.scope.split(separator: " ").map(String.init)
        notGranted = account.missingScope?.split(separator: " ").map(String.init) ?? []
        active = account.active
    }
}
