import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import WireFormat

/// `atoauth gateway token …`: named tokens that lend a gateway's accounts with less power.
struct GatewayTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make, list and revoke named gateway tokens, each limited to accounts, permissions and a time.",
        discussion: """
            A named token is kept in the account store as a hash only (the encrypted files, or PostgreSQL with \
            --store), so every gateway on that store honours it, and a revocation applies on the next request on \
            every machine. A request with it may act only as its --account accounts (403 AccountNotAllowed), make \
            only the calls its --scope permissions cover (403 ScopeMissingError), and after --expires gets 401 \
            TokenExpired. No token may call createSession, refreshSession, deleteSession, createAppPassword or \
            revokeAppPassword (403 MethodNotAllowed).
            """,
        subcommands: [GatewayTokenCreateCommand.self, GatewayTokenListCommand.self, GatewayTokenRevokeCommand.self]
    )
}

/// `atoauth gateway token list`.
struct GatewayTokenListCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the named gateway tokens: name, accounts, scope, created, expires, last used; never a token.",
        discussion: """
            One line per token: `<name>  accounts=<handle>(<did>),…|all  scope=<permissions>|all  \
            created=<time>  expires=<time>|never  last-used=<time>|never` (times in RFC 3339, UTC; the last use \
            to within a minute). With --json, an array of objects with name, accounts (each did and handle), \
            scope (null when unrestricted), created, expires and lastUsed (null for none).
            """,
        aliases: ["ls"]
    )

    static let globalOptions = GlobalOption.store

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        try await GatewayTokenArguments.reparsed(Self.self).list()
    }

    private func list() async throws {
        let (listed, handles) = try await CLIContext.run(global) { context in
            let listed = try await context.accounts.gatewayTokens().list()
            let accounts = try await context.accounts.accounts()
            return (listed, Dictionary(accounts.map { ($0.did, $0.handle?.description) }) { first, _ in first })
        }
        let tokens = listed.map { GatewayTokenJSON($0, handles: handles) }
        if global.json { return try Output.json(tokens) }
        if tokens.isEmpty {
            return Output.message("No gateway tokens. Make one with: atoauth gateway token create <name>")
        }
        for token in tokens { Output.line(token.line) }
    }
}

/// `atoauth gateway token revoke`.
struct GatewayTokenRevokeCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "End a named gateway token: its next request, on any gateway sharing the store, gets 401.",
        discussion: """
            Exit 2 when no token has the name. With --json, prints {"revoked":"<name>"}.
            """
    )

    static let globalOptions = GlobalOption.store

    @Argument(help: ArgumentHelp("The token's name.", valueName: "name"))
    var name: String

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        try await GatewayTokenArguments.reparsed(Self.self).revoke()
    }

    private func revoke() async throws {
        try await CLIContext.run(global) { try await $0.accounts.gatewayTokens().revoke(name) }
        if global.json {
            try Output.json(["revoked": name])
        } else {
            Output.message("Revoked the gateway token “\(name)”.")
        }
    }
}

/// A named token as `token list` shows it.
struct GatewayTokenJSON: Encodable {
    var name: String
    var accounts: [AccountReferenceJSON]
    @NullWhenAbsent var scope: String? = nil
    var created: String
    @NullWhenAbsent var expires: String? = nil
    @NullWhenAbsent var lastUsed: String? = nil

    init(_ listing: GatewayTokenListing, handles: [DID: String?]) {
        let record = listing.record
        name = record.name
        accounts = record.accounts.map { AccountReferenceJSON(did: $0.rawValue, handle: handles[$0] ?? nil) }
        scope = record.scope
        created = Self.time(record.created)
        expires = record.expires.map(Self.time)
        lastUsed = listing.lastUsed.map(Self.time)
    }

    /// `2026-11-28T10:30:07Z`.
    static func time(_ date: Date) -> String { date.formatted(.iso8601) }

    /// The line `token list` prints.
    var line: String {
        let named =
            accounts.isEmpty
            ? "all"
            : accounts.map { account in account.handle.map { "\($0)(\(account.did))" } ?? account.did }
                .joined(separator: ",")
        return "\(name)  accounts=\(named)  scope=\(scope ?? "all")  created=\(created)  "
            + "expires=\(expires ?? "never")  last-used=\(lastUsed ?? "never")"
    }
}
