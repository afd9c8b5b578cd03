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
            app-password); with --json, one object with did, handle, pds and kind.

            Examples:
              atoauth whoami
              atoauth whoami --account bob.bsky.social --json
            """
    )

    static let globalOptions = GlobalOption.signedInRequests

    @OptionGroup var global: GlobalOptions<Self>
    func run() async throws {
        let (info, account) = try await CLIContext.run(global) { context in
            let account = try await context.accounts.account(try AccountName.identifier(context.selectedAccount))
            let client = try await context.accounts.client(for: .did(account.did))
            let info = try await client.getSession()
            // The PDS answers for the token's account; any other DID means the PDS or the session is not what
            // was checked at sign-in (atproto.com/specs/oauth, Identity Authentication).
            guard info.did == account.did.rawValue else {
                throw CLIFailure(
                    status: CLIFailure.securityCheck,
                    message: "The PDS answered for \(TerminalText.sanitized(info.did, limit: 200)), not for the "
                        + "session's \(account.did). Nothing was changed; check the account with `atoauth accounts "
                        + "status` and sign in again if it persists."
                )
            }
            return (info, account)
        }
        if global.json {
            try Output.json([
                "did": info.did, "handle": info.handle, "pds": account.pds.absoluteString,
                "kind": account.kind.rawValue,
            ])
        } else {
            // The handle is the server's word: made safe for the terminal.
            Output.line(
                "\(TerminalText.sanitized(info.handle, limit: 253)) \(info.did) \(account.pds.absoluteString) "
                    + account.kind.rawValue
            )
        }
    }
}
