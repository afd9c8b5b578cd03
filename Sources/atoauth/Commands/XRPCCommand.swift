import ATClient
import ATProtoSyntax
import AccountManager
import ArgumentParser
import Foundation
import WireFormat

/// `atoauth xrpc`.
struct XRPCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xrpc",
        abstract: "Call an XRPC method on the account's PDS with a DPoP-bound token.",
        discussion: """
            A query (GET, name=value pairs as query parameters) unless --input or --post is given; then a
            procedure (POST) with the body from --input as application/json. Prints the response body on stdout
            (pretty JSON when it is JSON); an XRPC error answer is printed on stderr and exits 1.
            app.bsky.* methods are proxied by the PDS to the Bluesky AppView (atproto-proxy header).
            The call goes out as --account when given, else as the account its repo (a repo=... parameter or a
            "repo" member of the JSON body) names when that account is signed in here, else as the active account;
            -v says which.

            Examples:
              atoauth xrpc com.atproto.server.getSession
              atoauth xrpc app.bsky.actor.getProfile actor=alice.bsky.social
              atoauth xrpc com.atproto.repo.listRecords repo=alice.bsky.social collection=app.bsky.feed.post limit=5
              atoauth xrpc com.atproto.repo.createRecord --input @record.json
              echo '{"repo":"alice.test","collection":"app.bsky.feed.post","record":{"text":"hi"}}' | atoauth xrpc com.atproto.repo.createRecord --input -
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The method's NSID, such as com.atproto.server.getSession.", valueName: "nsid"))
    var nsid: String

    @Argument(
        help: ArgumentHelp("Query parameters as name=value (repeat a name for an array).", valueName: "name=value")
    )
    var parameters: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The JSON body: inline JSON, @FILE to read a file, or - for standard input.",
            valueName: "json"
        )
    )
    var input: String?

    @Flag(name: .long, help: "Send a procedure (POST) even without --input.")
    var post = false

    func validate() throws {
        guard NSID.isValid(nsid) else {
            throw ValidationError("“\(nsid)” is not an NSID such as com.atproto.server.getSession.")
        }
        for parameter in parameters where !parameter.contains("=") || parameter.hasPrefix("=") {
            throw ValidationError("Query parameters are name=value; “\(parameter)” is not.")
        }
    }

    func run() async throws {
        let body = try readInput()
        let method = try NSID(validating: nsid)
        let pairs = parameters.map { parameter -> (String, String) in
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let response = try await CLIContext.run(global) { context in
            // Routed: --account, else the account the request's repo names when it is signed in, else the active one.
            let client = context.accounts.client()
            if body != nil || post {
                return try await client.procedure(
                    method,
                    input: body ?? Data(),
                    parameters: pairs,
                    as: context.selectedAccount
                )
            }
            return try await client.query(method, parameters: pairs, as: context.selectedAccount)
        }
        if let pretty = response.prettyJSON {
            Output.line(pretty)
        } else if isatty(STDOUT_FILENO) == 1 {
            // Not JSON, and a person is reading: the server's bytes could drive the terminal. Show them made safe,
            // and say how to get them as sent.
            Output.line(TerminalText.sanitized(String(decoding: response.body, as: UTF8.self), limit: 4096))
            Output.message(
                "(\(response.body.count) bytes that are not JSON, shown made safe; redirect stdout for them as sent)"
            )
        } else {
            FileHandle.standardOutput.write(response.body)
        }
    }

    private func readInput() throws -> Data? {
        guard let input else { return nil }
        let data: Data
        if input == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else if input.hasPrefix("@") {
            let path = String(input.dropFirst())
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw CLIFailure(status: CLIFailure.usage, message: "Cannot read the input file \(path).")
            }
            data = contents
        } else {
            data = Data(input.utf8)
        }
        guard (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil else {
            throw CLIFailure(status: CLIFailure.usage, message: "--input is not valid JSON.")
        }
        return data
    }
}
