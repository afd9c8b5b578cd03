import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import Gateway
import WireFormat

/// `atoauth gateway token create`.
struct GatewayTokenCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a named gateway token and print it, once.",
        discussion: discussion
    )

    @Argument(
        help: ArgumentHelp(
            "The token's name: 1–64 letters, digits, “.”, “_” or “-”; not “startup” or “none”.",
            valueName: "name"
        )
    )
    var name: String

    @Option(
        name: .customLong("account"),
        help: ArgumentHelp(
            "An account the token may act as; repeat for several (default: every account).",
            valueName: "handle-or-did"
        ),
        completion: AccountCompletion.signedIn,
        transform: AccountArgument.parse
    )
    var accounts: [AccountArgument] = []

    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "A permission the token is limited to, such as repo:app.bsky.feed.like?action=create; repeat for "
                + "several (default: unrestricted).",
            valueName: "permission"
        ),
        transform: PermissionList.parse
    )
    var scopes: [PermissionList] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long the token works: 8s, 90m, 1h, 7d (default: until revoked).",
            valueName: "duration"
        ),
        transform: TokenLifetime.parse
    )
    var expires: TokenLifetime?

    @OptionGroup var store: TokenStoreOptions

    func validate() throws {
        guard GatewayTokenRecord.isValidName(name) else {
            throw ValidationError(GatewayTokenError.invalidName(name).reason)
        }
    }

    func run() async throws {
        try await GatewayTokenArguments.reparsed(Self.self).create()
    }

    private func create() async throws {
        let scope = scopes.isEmpty ? nil : ScopeSet(scopes.flatMap(\.scope.permissions))
        let token = GatewayToken.generate()
        let record = try await CLIContext.run(store.settings, creatingStore: true) { context in
            var dids: [DID] = []
            for account in accounts {
                let identifier = try account.identifier()
                let did = try await context.accounts.account(identifier).did
                if !dids.contains(did) { dids.append(did) }
            }
            return try await context.accounts.gatewayTokens().create(
                name: name,
                token: token,
                accounts: dids,
                scope: scope,
                lifetime: expires?.duration,
                now: Date()
            )
        }
        try Output.result(CreatedTokenJSON(record, token: token), json: store.json, text: token)
        if Output.isTerminal {
            Output.message("This token will not be shown again; only its hash is kept.")
        }
    }
}

extension GatewayTokenCreateCommand: GlobalOptionUser {
    /// The store's options, through ``TokenStoreOptions``: its `--account` is the token's own.
    static var globalOptions: Set<GlobalOption> { GlobalOption.store }
}

/// The `--home`, `--store`, `--json` and `-v` options of a command that keeps its own `--account`.
struct TokenStoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where accounts are kept (env ATOAUTH_HOME).", valueName: "dir"))
    var home: String?

    @Option(
        name: .long,
        help: ArgumentHelp("A postgresql:// URL of a shared account store (env ATOAUTH_STORE).", valueName: "url")
    )
    var store: String?

    @Flag(name: .long, help: "Machine-readable JSON output on stdout, and errors as JSON on stderr.")
    var json = false

    @Flag(name: .shortAndLong, help: "Log what is done on stderr (env ATOAUTH_VERBOSE=1).")
    var verbose = false

    /// The settings: each option, else its variable.
    var settings: GlobalSettings {
        let environment = ProcessInfo.processInfo.environment
        var settings = GlobalSettings(home: home, store: store, environment: environment)
        settings.json = json
        settings.verbose = verbose || environment[GlobalOption.verbose.variable ?? ""] == "1"
        return settings
    }
}

/// What `token create --json` prints: `name`, `token`, `accounts`, `scope` and `expires`, null when absent.
struct CreatedTokenJSON: Encodable {
    var name: String
    var token: String
    var accounts: [String]
    @NullWhenAbsent var scope: String? = nil
    @NullWhenAbsent var expires: String? = nil

    init(_ record: GatewayTokenRecord, token: String) {
        name = record.name
        self.token = token
        accounts = record.accounts.map(\.rawValue)
        scope = record.scope
        expires = record.expires.map(GatewayTokenJSON.time)
    }
}
