import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import OAuthSessionManager
import WireFormat

/// `atoauth accounts list`.
struct ListCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the signed-in accounts; * marks the active one.",
        discussion: """
            One line per account: `* <handle> <did> <pds> <kind>`, where kind is oauth or app-password (on a \
            terminal, in aligned columns under a header). With --json, an array of objects with did, handle, \
            pds, issuer, scope, permissions (the granted ones, one each), notGranted, active and kind.

            A stored session that cannot be read is named on stderr as `! <did> (…)` (with --json, as an object \
            with did, unreadable: true and reason); remove it with `atoauth accounts remove <did>`.

            Also `atoauth accounts ls`, and plain `atoauth accounts`.

            Examples:
              atoauth accounts list
              atoauth accounts list --json \\
                | jq -r '.[] | select(.active) | .did'
            """,
        aliases: ["ls"]
    )

    /// Listing reads the store only.
    static let globalOptions = GlobalOption.store

    @OptionGroup var global: GlobalOptions<Self>
    func run() async throws {
        let listing = try await CLIContext.run(global) { try await $0.accounts.accountListing() }
        let readable = listing.accounts.map { AccountJSON($0) }
        try ReadableOrNot.print(readable, unreadable: listing.unreadable, json: global.json) {
            let rows = listing.accounts.map { account in
                [
                    (account.active ? "* " : "  ") + (account.handle?.description ?? "-"), account.did.rawValue,
                    account.pds.absoluteString, account.kind.rawValue,
                ]
            }
            if Output.isTerminal, !rows.isEmpty {
                // A person reads aligned columns under a header; a script keeps the contract's single spaces.
                let cells = rows.map { $0.map { TerminalText.printable($0) } }
                Output.line(
                    TextTable(rows: [["  HANDLE", "DID", "PDS", "KIND"]] + cells).lines.joined(separator: "\n")
                )
            } else {
                for row in rows { Output.line(row.joined(separator: " ")) }
            }
        }
    }
}

/// One element of an array of accounts (`accounts list --json`, `accounts status --all --json`): what is shown of a
/// readable account, or a session that cannot be read.
enum ReadableOrNot<Readable: Encodable>: Encodable {
    case account(Readable)
    case unreadable(UnreadableAccountJSON)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .account(let account): try account.encode(to: encoder)
        case .unreadable(let session): try session.encode(to: encoder)
        }
    }

    /// Prints accounts: with `--json`, one array of the readable ones and then the sessions that cannot be read;
    /// else `text` when there are readable ones, a notice on stderr for each unreadable session, and how to sign in
    /// when there is no account at all.
    static func print(
        _ readable: [Readable],
        unreadable: [UnreadableSession],
        json: Bool,
        text: () -> Void
    ) throws {
        if json {
            try Output.json(readable.map(Self.account) + unreadable.map { .unreadable(UnreadableAccountJSON($0)) })
        } else if readable.isEmpty && unreadable.isEmpty {
            Output.message("No accounts. Sign in with: atoauth accounts add <handle>")
        } else {
            text()
            for session in unreadable { Output.message(UnreadableAccountJSON.notice(session)) }
        }
    }
}

/// The JSON shape of a stored session that cannot be read: `{"did", "unreadable": true, "reason"}`.
struct UnreadableAccountJSON: Encodable {
    var did: String
    var unreadable = true
    var reason: String

    init(_ session: UnreadableSession) {
        did = session.did.rawValue
        reason = session.reason
    }

    /// The line on stderr that names a session that cannot be read, and how to remove it.
    static func notice(_ session: UnreadableSession) -> String {
        "! \(session.did) (the stored session is unreadable: \(session.reason); "
            + "remove it with atoauth accounts remove \(session.did))"
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
    /// `oauth`, or `app-password` for a legacy app-password session.
    var kind: String
    /// After a sign-in that replaced a session: what became of the old grant (`revoked`, `not supported by the
    /// server`, `failed`); left out otherwise.
    var previousSession: String?

    /// The account, and after a sign-in that replaced a session, what became of the old grant.
    init(_ account: Account, previousGrant: Revocation? = nil) {
        previousSession = previousGrant.map(RevocationText.word)
        did = account.did.rawValue
        handle = account.handle?.description
        pds = account.pds.absoluteString
        issuer = account.issuer
        scope = account.scope
        permissions = account.scope.split(separator: " ").map(String.init)
        notGranted = account.missingScope?.split(separator: " ").map(String.init) ?? []
        active = account.active
        kind = account.kind.rawValue
    }
}
