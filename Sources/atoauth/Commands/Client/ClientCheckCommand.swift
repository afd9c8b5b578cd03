import ArgumentParser
import Foundation
import HTTPTransport
import Keystore
import OAuthMetadata
import OAuthSessionManager
import WireFormat

/// `atoauth client check`.
struct ClientCheckCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a client metadata document, public or confidential, against the AT Protocol profile.",
        discussion: """
            Reads the document from a file, or fetches it from its https:// URL as an authorization server does \
            (status 200, JSON, no redirect, a public address; http://127.0.0.1 only with --allow-http-loopback), \
            and checks every rule of the AT Protocol profile (atproto.com/specs/oauth, Clients and Client \
            Authentication) and of the reference authorization server: the client_id (the URL it was fetched \
            from; a file's is checked on its own), application_type, grant_types, response_types, the scope's \
            permissions, dpop_bound_access_tokens, each redirect URI for the application type, the \
            authentication method, a confidential client's ES256 keys (jwks or jwks_uri; a published private key \
            is reported), the home page and logo URLs, and the size. For a document at a URL, the key set at its \
            jwks_uri is fetched the same way and checked as an inline jwks; a file's jwks_uri is not fetched.

            Prints one line per problem, `<field>: <problem> [<rule>]`, or `ok: <client_id> is a valid public \
            client document` (or confidential). With --json, one object: {"clientID", "kind": "public" | \
            "confidential", "problems": [{"field", "problem", "rule"}]}. No store is opened.

            Exit status: 0 when the document has no problem, 1 when it has any or cannot be fetched, 2 for a \
            usage error (a file that cannot be read), 4 when the fetch is refused (an unsafe address, a \
            redirect).

            Examples:
              atoauth client check https://app.example.com/client-metadata.json
              atoauth client check client-metadata.json --json
            """
    )

    /// A check reads a file or fetches a URL; it never opens the store.
    static let globalOptions: Set<GlobalOption> = [.allowHTTPLoopback, .requestTimeout, .json, .verbose]

    /// The largest file read: far above the 64 KiB a document may have, which the check reports.
    static let maximumFileSize = 1 << 20

    @Argument(
        help: ArgumentHelp("The document's https:// URL (its client_id), or a file.", valueName: "url-or-file"),
        completion: .file(),
        transform: DocumentSource.parse
    )
    var document: DocumentSource

    @OptionGroup var global: GlobalOptions<Self>

    func run() async throws {
        let settings = try GlobalSettings(global, environment: ProcessInfo.processInfo.environment)
        let (data, problems) = try await checkedDocument(settings)
        let checked = CheckJSON(data, problems: problems)
        if settings.json {
            try Output.json(checked)
        } else if problems.isEmpty {
            Output.line("ok: \(checked.clientID ?? "-") is a valid \(checked.kind) client document")
        } else {
            for problem in problems {
                Output.line(problem.description)
            }
        }
        guard problems.isEmpty else {
            // The JSON answer counts them; with --json, stderr holds only errors, as JSON.
            if !settings.json {
                let one = problems.count == 1
                let count = one ? "1 problem" : "\(problems.count) problems"
                Output.message("\(count): servers refuse this document until \(one ? "it is" : "they are") fixed.")
            }
            throw ExitCode.failed
        }
    }

    /// The document's bytes and problems: a file's as it is, a URL's with those of the key set at its `jwks_uri`,
    /// which is fetched too (a file's may not be served yet).
    private func checkedDocument(_ settings: GlobalSettings) async throws -> (Data, [ClientMetadataProblem]) {
        let url: URL
        switch document {
        case .file(let path):
            let data = try Self.contents(ofFile: path)
            return (
                data,
                ClientMetadataCheck.problems(in: data, fetchedFrom: nil, allowHTTPLoopback: settings.allowHTTPLoopback)
            )
        case .url(let given): url = given
        }
        // Refused here, as usage, rather than by the fetch's own check, which is a security check (exit 4).
        let loopback = HostKind.classify(url.host(percentEncoded: true) ?? "").isLoopback
        if url.scheme?.lowercased() == "http", !(settings.allowHTTPLoopback && loopback) {
            throw CLIFailure(
                status: .usage,
                message: "A client metadata document is served over https; http://127.0.0.1 or http://[::1] only in "
                    + "development, with --allow-http-loopback."
            )
        }
        return try await CLIContext.withTransport(settings, logger: CLIContext.logger(settings)) { transport in
            let fetcher = SafeFetcher(
                transport: transport,
                configuration: SafeFetcher.Configuration(allowHTTPLoopback: settings.allowHTTPLoopback)
            )
            let data = try await fetcher.get(url, expecting: .metadata).body
            let problems = ClientMetadataCheck.problems(
                in: data,
                fetchedFrom: url.absoluteString,
                allowHTTPLoopback: settings.allowHTTPLoopback
            )
            let keySet = await ClientMetadataCheck.keySetProblems(ofDocument: data, besides: problems, fetcher: fetcher)
            return (data, problems + keySet)
        }
    }

    /// A regular file's bytes, up to ``maximumFileSize`` (``UserFile``).
    private static func contents(ofFile path: String) throws -> Data {
        try UserFile.read(
            path,
            limit: maximumFileSize,
            what: "the client metadata document",
            missingAdvice: "Give a file or the document's https:// URL."
        ) { "\($0) is larger than 1 MiB; a client metadata document is at most 64 KiB." }
        .data
    }
}

/// The JSON answer of `client check`: the document's `client_id` and kind, and its problems.
struct CheckJSON: Encodable {
    /// The document's `client_id`, or `null` when it has none.
    @NullWhenAbsent var clientID: String? = nil
    /// `confidential` for `private_key_jwt`, else `public`.
    var kind: String
    var problems: [ClientMetadataProblem]

    init(_ document: Data, problems: [ClientMetadataProblem]) {
        let object = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any]
        clientID = object?["client_id"] as? String
        kind = object?["token_endpoint_auth_method"] as? String == "private_key_jwt" ? "confidential" : "public"
        self.problems = problems
    }
}
