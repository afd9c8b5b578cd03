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
        discussion: discussion
    )

    static let globalOptions = GlobalOption.signedInRequests

    @Argument(
        help: ArgumentHelp("The method's NSID, such as com.atproto.server.getSession.", valueName: "nsid"),
        transform: XRPCMethod.parse
    )
    var method: XRPCMethod

    @Argument(
        help: ArgumentHelp("Query parameters as name=value (repeat a name for an array).", valueName: "name=value"),
        transform: QueryParameter.parse
    )
    var parameters: [QueryParameter] = []

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
        ),
        transform: ContentType.parse
    )
    var contentType: ContentType?

    @Flag(name: .long, help: "Send a procedure (POST) even without --input.")
    var post = false

    @Flag(name: .long, help: "Follow the cursor of a query through every page.")
    var paginate = false

    @Option(
        name: .long,
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --paginate, stop after this many pages (default \(defaultMaximumPages)).",
            valueName: "n"
        ),
        transform: WholeNumber.parser("--max-pages", within: 1...maximumPages, unit: "pages")
    )
    var maxPages: Int?

    @Flag(name: .long, help: "Print the answer's bytes exactly as received.")
    var raw = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The largest answer read, with K, M or G for KiB, MiB or GiB (default 1G).",
            valueName: "bytes"
        ),
        transform: ByteCount.parse
    )
    var maxResponse: ByteCount?

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
    /// The largest answer read without `--max-response`: 1 GiB, as much as `--input` sends.
    static let defaultMaximumResponse = XRPCInput.maximumSize
    /// The largest `--max-pages`.
    static let maximumPages = 1_000_000

    func validate() throws {
        try ValidationError.refuseFirst(of: [
            (contentType != nil && input == nil, "--content-type describes the body; give --input too."),
            (
                paginate && (input != nil || post),
                "--paginate follows the cursor of a query; a procedure (--input, --post) has none."
            ),
            (maxPages != nil && !paginate, "--max-pages limits --paginate; give --paginate too."),
            (
                raw && (global.json || paginate),
                "--raw prints one answer as received; it cannot be combined with \(paginate ? "--paginate" : "--json")."
            ),
        ])
        _ = try XRPCHeaderOptions(headers: headers, proxy: proxy)
    }

    func run() async throws {
        let body = try input.map { try XRPCInput.read($0, contentType: contentType?.text) }
        if input == nil, StandardInputData.isWaiting {
            Output.message(
                "Note: standard input has data, which xrpc sends only with `--input -`; it was not read or sent."
            )
        }
        let extra = try XRPCHeaderOptions(headers: headers, proxy: proxy)
        let method = self.method.nsid
        let pairs = parameters.map { ($0.name, $0.value) }
        let format: XRPCPrinter.Format = raw ? .raw : global.json ? .json : .readable
        let responseLimit = (bytes: maxResponse?.bytes ?? Self.defaultMaximumResponse, option: "--max-response")
        try await CLIContext.run(global, responseLimit: responseLimit) { context in
            // Routed: --account, else the account the request's repo names when it is signed in, else the active one.
            let client = context.accounts.client()
            let account = try context.settings.selectedAccount()
            var request = XRPCRequest(
                nsid: method,
                method: body != nil || post ? .post : .get,
                parameters: pairs,
                body: body?.body
            )
            request.contentType = body?.contentType ?? MediaType.json
            request.proxy = extra.proxy
            request.headers = extra.headers
            request.account = account
            if paginate {
                try await XRPCPagination(method: method, maximumPages: maxPages ?? Self.defaultMaximumPages)
                    .run(parameters: pairs, merged: global.json) { parameters in
                        request.parameters = parameters
                        return try await client.execute(request)
                    }
                return
            }
            let response: XRPCResponse
            do {
                response = try await client.execute(request)
            } catch  where request.method == .post && CLIFailure(error).status == .cancelled {
                throw Self.cancelledProcedure
            }
            XRPCPrinter.print(response, as: format)
        }
    }

    /// A procedure cancelled (Ctrl-C) may have reached the PDS and been carried out: the user is told so, not that
    /// nothing was stored, so that they check before sending it again.
    static let cancelledProcedure = CLIFailure(
        status: .cancelled,
        message: "Cancelled; the request may already have reached the PDS and been carried out: check before "
            + "sending it again."
    )
}
