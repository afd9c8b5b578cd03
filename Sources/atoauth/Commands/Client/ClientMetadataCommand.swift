import AccountManager
import ArgumentParser
import Foundation
import OAuthMetadata
import OAuthSessionManager
import WireFormat

/// `atoauth client metadata`.
struct ClientMetadataCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "metadata",
        abstract: "Write a client metadata document: a confidential web client's (private_key_jwt), or a native app's.",
        discussion: discussion
    )

    /// The store's keys are published by default; `--client-id` names the document; a development document may
    /// be served from loopback.
    static let globalOptions = GlobalOption.store.union([.clientID, .allowHTTPLoopback])

    static let globalOptionHelp: [GlobalOption: String] = [
        .clientID: "The URL the document will be served at: its client_id (env ATOAUTH_CLIENT_ID).",
        .allowHTTPLoopback:
            "Development only: a document served from http://127.0.0.1 or http://[::1] (env "
            + "ATOAUTH_ALLOW_HTTP_LOOPBACK=1).",
    ]

    /// What a native app's document redirects to when no `--redirect-uri` is given: atoauth's own listener.
    static let nativeRedirectURI = "http://127.0.0.1/callback"

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp(
            "A redirect URI (repeatable); https on the client_id's host for a web client.",
            valueName: "url"
        )
    )
    var redirectURIs: [String] = []

    @Option(
        name: .customLong("copy-address-uri"),
        help: ArgumentHelp(
            "A static https page that only shows its own address, for signing in from a terminal; added to the "
                + "redirect URIs.",
            valueName: "url"
        )
    )
    var copyAddressURI: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The permissions the client may ask for, space-separated (default: atproto transition:generic).",
            valueName: "permissions"
        ),
        transform: PermissionList.parse
    )
    var scope: PermissionList?

    @Option(name: .long, help: ArgumentHelp("The client's name on the authorization page.", valueName: "name"))
    var name: String?

    @Option(
        name: .customLong("client-uri"),
        help: ArgumentHelp("The client's home page: on the client_id's origin, above it.", valueName: "url")
    )
    var clientURI: String?

    @Option(
        name: .customLong("jwks-uri"),
        help: ArgumentHelp("Publish the keys at this https URL (jwks_uri) instead of inline.", valueName: "url")
    )
    var jwksURI: String?

    @Flag(
        name: .customLong("jwks-from-store"),
        help: "Publish every client key of the store inline (jwks); the default for a web client."
    )
    var jwksFromStore = false

    @Option(
        name: .customLong("jwks"),
        help: ArgumentHelp("Publish the public key set in this file inline (jwks).", valueName: "file"),
        completion: .file()
    )
    var jwksFile: String?

    @Flag(
        name: [.customLong("native"), .customLong("public")],
        help: "Write a native app's public client document: token_endpoint_auth_method none, no keys."
    )
    var native = false

    @Option(
        name: .long,
        help: ArgumentHelp("Write the document to this file (mode 0644) instead of stdout.", valueName: "file"),
        completion: .file()
    )
    var out: String?

    @OptionGroup var global: GlobalOptions<Self>

    /// Whether the document publishes the store's keys.
    var usesStore: Bool { !native && jwksURI == nil && jwksFile == nil }

    func validate() throws {
        let keySources = [jwksURI != nil, jwksFromStore, jwksFile != nil].filter { $0 }.count
        try ValidationError.refuseFirst(of: [
            (keySources > 1, "Publish the keys one way: --jwks-uri, --jwks-from-store or --jwks, not several."),
            (
                native && keySources > 0,
                "A native app is a public client and publishes no keys: --jwks-uri, --jwks-from-store and --jwks do "
                    + "not apply with --native."
            ),
            (
                native && copyAddressURI != nil,
                "--copy-address-uri is for a confidential web client; a native app redirects to its loopback "
                    + "listener (http://127.0.0.1) or its private-use scheme."
            ),
            (
                !native && redirectURIs.isEmpty && copyAddressURI == nil,
                "Give the client's redirect URIs with --redirect-uri (repeatable) or --copy-address-uri."
            ),
            (
                !usesStore && (global.home != nil || global.store != nil),
                "--home and --store choose the store whose keys the document publishes; they apply only with "
                    + "--jwks-from-store (the default for a web client)."
            ),
        ])
    }

    func run() async throws {
        let settings = try GlobalSettings(global, environment: ProcessInfo.processInfo.environment)
        guard let clientID = settings.clientID else {
            throw CLIFailure(
                status: .usage,
                message: "Give the URL the document will be served at, its client_id, with --client-id (or "
                    + "ATOAUTH_CLIENT_ID)."
            )
        }
        var document = ClientMetadataDocument(
            clientID: clientID.absoluteString,
            native: native,
            scope: scope?.text ?? "atproto transition:generic"
        )
        document.redirectURIs = native && redirectURIs.isEmpty ? [Self.nativeRedirectURI] : redirectURIs
        if let copyAddressURI, !document.redirectURIs.contains(copyAddressURI) {
            document.redirectURIs.append(copyAddressURI)
        }
        document.name = name
        document.clientURI = clientURI
        var storeKeys: [ClientKeyStatus] = []
        if let jwksURI {
            document.keys = .location(jwksURI)
        } else if let jwksFile {
            document.keys = .inline(try ClientMetadataDocument.keySet(fromFile: jwksFile))
        } else if usesStore {
            storeKeys = try await CLIContext.run(settings) { try await $0.accounts.clientKeys() }
            guard !storeKeys.isEmpty else {
                throw CLIFailure(
                    status: .usage,
                    message: "The store has no client key to publish: make one with `atoauth client keygen` first, "
                        + "or give --jwks-uri URL or --jwks FILE. Nothing was written."
                )
            }
            document.keys = .inline(storeKeys.map(\.publicJWK))
        }
        let data = try document.checked(allowHTTPLoopback: settings.allowHTTPLoopback, json: settings.json)
        if let out { try Self.write(data, to: out) }
        if settings.json {
            try Output.jsonLine(document.summaryJSON(file: out))
        } else if out == nil {
            Output.line(String(decoding: data, as: UTF8.self))
        }
        Output.message(nextSteps(document, storeKeys: storeKeys))
    }
}
