import ATClient
import ATProtoSyntax
import ArgumentParser
import Foundation
import HTTPTransport

/// `atoauth xrpc`.
struct XRPCCommand: AsyncParsableCommand, GlobalOptionUser {
    static let configuration = CommandConfiguration(
        commandName: "xrpc",
        abstract: "Call an XRPC method on the account's PDS with a DPoP-bound token.",
        discussion: """
            A query (GET, with the name=value pairs as query parameters) unless --input or --post is given; then \
            a procedure (POST) with the body from --input. Prints the answer on stdout: indented JSON, or one \
            line with --json, or the bytes as received with --raw (on a terminal, bytes that would drive it are \
            shown made safe). An XRPC error answer is printed on stderr and \
            exits 1; a call the session's permissions do not allow exits 3 with the command to sign in again.

            --input takes inline JSON, @FILE or - (standard input, read as bytes). The body is sent as \
            --content-type when given; else as application/json when it is JSON; else as the type the file's \
            extension implies (.png, .jpg, .webp, .gif, .mp4, …); else as application/octet-stream.

            --paginate follows the cursor of a query until a page has none, printing each page; with --json the \
            pages are merged into one object whose arrays hold every page's items. It stops with exit 1 when the \
            server repeats a cursor, or after --max-pages pages (then it names the cursor to continue from).

            app.bsky.* and chat.bsky.* methods go through the PDS to the Bluesky services (atproto-proxy); \
            --proxy DID#SERVICE names another service. --header (or -H) NAME:VALUE adds a field, but not one atoauth \
            sets itself (Authorization, DPoP, Host, Content-Length; Content-Type comes from --content-type). \
            The call goes out as --account when given, else as the \
            account its repo (a repo=... parameter or a "repo" member of the JSON body) names when that account \
            is signed in here, else as the active account; -v says which.

            Examples:
              atoauth xrpc com.atproto.server.getSession
              atoauth xrpc app.bsky.actor.getProfile \\
                actor=alice.bsky.social
              atoauth xrpc com.atproto.repo.listRecords \\
                repo=alice.bsky.social \\
                collection=app.bsky.feed.post --paginate --json
              atoauth xrpc com.atproto.repo.createRecord \\
                --input @record.json
              atoauth xrpc com.atproto.repo.uploadBlob \\
                --input @photo.png
              atoauth xrpc app.bsky.feed.getFeed \\
                feed=at://did:plc:…/app.bsky.feed.generator/x \\
                --header atproto-accept-labelers:did:plc:…
              atoauth xrpc com.atproto.sync.getBlob did=… cid=… \\
                --raw > blob.bin
            """
    )

    static let globalOptions = GlobalOption.signedInRequests

    @Argument(
        help: ArgumentHelp("The method's NSID, such as com.atproto.server.getSession.", valueName: "nsid"),
        transform: XRPCMethod.parse
    )
    var method: XRPCMethod

    @Argument(
        help: ArgumentHelp("Query parameters as name=value (repeat a name for an array).", valueName: "name=value")
    )
    var parameters: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The body: inline JSON, @FILE to read a file, or - for standard input.",
            valueName: "json | @file | -"
        )
    )
    var input: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The body's media type, such as image/png (default: from the body or the file's extension).",
            valueName: "type"
        )
    )
    var contentType: String?

    @Flag(name: .long, help: "Send a procedure (POST) even without --input.")
    var post = false

    @Flag(name: .long, help: "Follow the cursor of a query through every page.")
    var paginate = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --paginate, stop after this many pages (default \(defaultMaximumPages)).",
            valueName: "n"
        )
    )
    var maxPages: Int?

    @Flag(name: .long, help: "Print the answer's bytes exactly as received.")
    var raw = false

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("Add a header field (repeat for more), as curl's -H does.", valueName: "name:value"),
        transform: HeaderField.parse
    )
    var headers: [HeaderField] = []

    @Option(
        name: .long,
        help: ArgumentHelp("The service the PDS forwards the call to (atproto-proxy).", valueName: "did#service"),
        transform: ProxyService.parse
    )
    var proxy: ProxyService?

    @OptionGroup var global: GlobalOptions<Self>

    /// The page limit when `--max-pages` is not given.
    static let defaultMaximumPages = 1000
    /// The largest `--max-pages`.
    static let maximumPages = 1_000_000

    func validate() throws {
        for parameter in parameters where !parameter.contains("=") || parameter.hasPrefix("=") {
            throw ValidationError("Query parameters are name=value; “\(parameter)” is not.")
        }
        if let contentType {
            guard input != nil else { throw ValidationError("--content-type describes the body; give --input too.") }
            guard MediaType.isValid(contentType) else {
                throw ValidationError("--content-type takes a media type such as image/png; “\(contentType)” is not.")
            }
        }
        if paginate, input != nil || post {
            throw ValidationError("--paginate follows the cursor of a query; a procedure (--input, --post) has none.")
        }
        if let maxPages {
            guard paginate else { throw ValidationError("--max-pages limits --paginate; give --paginate too.") }
            guard (1...Self.maximumPages).contains(maxPages) else {
                throw ValidationError("--max-pages must be a number of pages from 1 to \(Self.maximumPages).")
            }
        }
        if raw, global.json || paginate {
            throw ValidationError(
                "--raw prints one answer as received; it cannot be combined with \(paginate ? "--paginate" : "--json")."
            )
        }
        _ = try XRPCHeaderOptions(headers: headers, proxy: proxy)
    }

    func run() async throws {
        let body = try input.map { try XRPCInput.read($0, contentType: contentType) }
        if input == nil, StandardInputData.isWaiting {
            Output.message(
                "Note: standard input has data, which xrpc sends only with `--input -`; it was not read or sent."
            )
        }
        let extra = try XRPCHeaderOptions(headers: headers, proxy: proxy)
        let method = self.method.nsid
        let pairs = parameters.map { parameter -> (String, String) in
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let format: XRPCPrinter.Format = raw ? .raw : global.json ? .json : .readable
        try await CLIContext.run(global) { context in
            // Routed: --account, else the account the request's repo names when it is signed in, else the active one.
            let client = context.accounts.client()
            let account = try AccountName.identifier(context.selectedAccount)
            var request = XRPCRequest(
                nsid: method,
                method: body != nil || post ? .post : .get,
                parameters: pairs,
                body: body?.body,
                contentType: body?.contentType ?? MediaType.json,
                proxy: extra.proxy,
                headers: extra.headers,
                account: account
            )
            if paginate {
                try await XRPCPagination(method: method, maximumPages: maxPages ?? Self.defaultMaximumPages)
                    .run(parameters: pairs, merged: global.json) { parameters in
                        request.parameters = parameters
                        return try await client.execute(request)
                    }
                return
            }
            let response = try await client.execute(request)
            XRPCPrinter.print(response, as: format)
        }
    }
}
