import ATClient
import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import OAuthSessionManager
import WireFormat

/// `atoauth whoami`.
struct WhoamiCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Ask the account's PDS who the session belongs to (com.atproto.server.getSession).",
        discussion: """
            Refreshes the session first when its access token is about to expire. Exits 3 when no account is \
            signed in or the session was revoked. Prints handle, DID, PDS and the session's kind (oauth or \
            app-password): on one line, or labelled one per line on a terminal; with --json, one object with did, \
            handle, pds and kind.

            Examples:
              atoauth whoami
              atoauth whoami --account bob.bsky.social --json
            """
    )

    static let globalOptions = GlobalOption.signedInRequests

    @OptionGroup var global: GlobalOptions<Self>
    func run() async throws {
        let (info, account) = try await CLIContext.run(global) { context in
            let account = try await context.accounts.account(try context.settings.selectedAccount())
            let client = try await context.accounts.client(for: .did(account.did))
            let info = try await client.getSession()
            // The PDS answers for the token's account; any other DID means the PDS or the session is not what
            // was checked at sign-in (atproto.com/specs/oauth, Identity Authentication).
            guard info.did == account.did.rawValue else {
                throw CLIFailure(
                    status: .securityCheckFailed,
                    message: "The PDS answered for \(TerminalText.sanitized(info.did, limit: 200)), not for the "
                        + "session's \(account.did). Nothing was changed; check the account with `atoauth accounts "
                        + "status` and sign in again if it persists."
                )
            }
            return (info, account)
        }
        // The handle shown is the one verified both ways at sign-in (atproto.com/specs/handle), not the PDS's
        // word; when the PDS now claims another, that is said, made safe for the terminal.
        let handle = account.handle?.description ?? "-"
        if info.handle.lowercased() != handle {
            Output.message(
                "Note: the PDS calls this account \(TerminalText.sanitized(info.handle, limit: 253)); the handle "
                    + "verified at sign-in is \(handle). Sign in again to check a new handle."
            )
        }
        if global.json {
            var object = ["did": info.did, "pds": account.pds.absoluteString, "kind": account.kind.rawValue]
            object["handle"] = account.handle?.description
            try Output.json(object)
        } else if Output.isTerminal {
            // A person reads labelled fields; a script (stdout not a terminal) keeps the one line of the contract.
            let rows = [
                ["Handle:", handle], ["DID:", info.did], ["PDS:", account.pds.absoluteString],
                ["Kind:", account.kind.rawValue],
            ]
            Output.line(TextTable(rows: rows).lines.joined(separator: "\n"))
        } else {
            Output.line("\(handle) \(info.did) \(account.pds.absoluteString) " + account.kind.rawValue)
        }
    }
}
