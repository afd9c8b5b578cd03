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
        discussion: """
            --client-id (or ATOAUTH_CLIENT_ID) is the https URL the document will be served at, its client_id. \
            The document is a confidential web client's: application_type web, grant_types authorization_code \
            and refresh_token, response_types code, token_endpoint_auth_method private_key_jwt, \
            token_endpoint_auth_signing_alg ES256, dpop_bound_access_tokens true, the scope and the redirect \
            URIs, client_name and client_uri when given, and the public keys: inline (jwks) from the store by \
            default, every key it holds (next, current and retiring: each must stay published), or from a key \
            set file with --jwks; or where they are published, with --jwks-uri. --copy-address-uri adds the \
            redirect URI of a static https page that only shows its own address, for signing in from a \
            terminal. With --native (or --public), a native app's public client document instead: \
            application_type native, token_endpoint_auth_method none, no keys, and http://127.0.0.1/callback \
            when no --redirect-uri is given.

            The document is checked as `atoauth client check` does before it is written: a problem is listed on \
            stderr and nothing is written (exit 1). stdout gets the document, pretty-printed with sorted keys, \
            unless --out names the file (mode 0644: it is public). With --json, one object: {"clientID", "kind", \
            "file", "keys", "document"}.

            Examples:
              atoauth client metadata \\
                --client-id https://app.example.com/client-metadata.json \\
                --redirect-uri https://app.example.com/callback \\
                --name "Example app" --out client-metadata.json
              atoauth client metadata \\
                --client-id https://app.example.com/client-metadata.json \\
                --redirect-uri https://app.example.com/callback \\
                --jwks-uri https://app.example.com/jwks.json
              atoauth client metadata --native \\
                --client-id https://app.example.com/client-metadata.json
            """
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

    @Option(name: .long, help: ArgumentHelp("The permissions the client may ask for.", valueName: "permissions"))
    var scope = "atproto transition:generic"

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
        if [jwksURI != nil, jwksFromStore, jwksFile != nil].filter({ $0 }).count > 1 {
            throw ValidationError("Publish the keys one way: --jwks-uri, --jwks-from-store or --jwks, not several.")
        }
        if native, jwksURI != nil || jwksFromStore || jwksFile != nil {
            throw ValidationError(
                "A native app is a public client and publishes no keys: --jwks-uri, --jwks-from-store and --jwks do "
                    + "not apply with --native."
            )
        }
        if native, copyAddressURI != nil {
            throw ValidationError(
                "--copy-address-uri is for a confidential web client; a native app redirects to its loopback "
                    + "listener (http://127.0.0.1) or its private-use scheme."
            )
        }
        if !native, redirectURIs.isEmpty, copyAddressURI == nil {
            throw ValidationError(
                "Give the client's redirect URIs with --redirect-uri (repeatable) or --copy-address-uri."
            )
        }
        if !usesStore, global.home != nil || global.store != nil {
            throw ValidationError(
                "--home and --store choose the store whose keys the document publishes; they apply only with "
                    + "--jwks-from-store (the default for a web client)."
            )
        }
    }

    func run() async throws {
        let settings = try GlobalSettings(global, environment: ProcessInfo.processInfo.environment)
        guard let clientID = settings.clientID else {
            throw CLIFailure(
                status: CLIFailure.usage,
                message: "Give the URL the document will be served at, its client_id, with --client-id (or "
                    + "ATOAUTH_CLIENT_ID)."
            )
        }
        var document = ClientMetadataDocument(clientID: clientID.absoluteString, native: native, scope: scope)
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
                    status: CLIFailure.usage,
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

    /// Replaces `path` with the document, mode 0644.
    private static func write(_ data: Data, to path: String) throws {
        do {
            try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: path), options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        } catch {
            throw CLIFailure(
                status: CLIFailure.failed,
                message: "Cannot write \(TerminalText.sanitized(path, limit: 200)): \(error.localizedDescription)"
            )
        }
    }

    /// Where to serve the document, and what keeps it valid.
    private func nextSteps(_ document: ClientMetadataDocument, storeKeys: [ClientKeyStatus]) -> String {
        var lines: [String] = []
        let place = out.map { "Wrote \(TerminalText.sanitized($0, limit: 200)). Serve it" } ?? "Serve the document"
        lines.append(
            "\(place) at \(document.clientID) (status 200, Content-Type application/json, no redirect), then "
                + "check it there: atoauth client check \(document.clientID)"
        )
        if !storeKeys.isEmpty {
            let keys = storeKeys.map { "\($0.record.keyID) (\($0.record.state.rawValue))" }
            lines.append(
                "It publishes the store's \(storeKeys.count == 1 ? "key" : "\(storeKeys.count) keys"): "
                    + keys.joined(separator: ", ") + ". Write and serve it again after `atoauth client keygen` "
                    + "and `atoauth client remove-key`: every key the store holds must stay published."
            )
        }
        if let jwksURI {
            lines.append("Serve the public key set at \(jwksURI), with every key that signs or has signed sessions.")
        }
        return lines.joined(separator: "\n")
    }
}
