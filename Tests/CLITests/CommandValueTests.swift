import ATProtoSyntax
import Foundation
import Testing

@testable import atoauth

/// The values that were strings checked in `validate()`: numbers in a range, accounts, query parameters, media types
/// and a document's source, each parsed by its own type.
@Suite("Typed command-line values: numbers, accounts, parameters")
struct CommandValueTests {
    @Test("a whole number within its range; anything else names the option and the range")
    func wholeNumber() throws {
        let pages = WholeNumber.parser("--max-pages", within: 1...1_000_000, unit: "pages")
        #expect(try pages("1") == 1)
        #expect(try pages("1000000") == 1_000_000)
        for text in ["0", "-1", "1000001", "ten", "1.5", "", " 5"] {
            let error = #expect(throws: InvalidArgument.self, "\(text)") { try pages(text) }
            #expect(error?.description == "--max-pages must be a number of pages from 1 to 1000000.")
        }
        let port = WholeNumber.port("--callback-port")
        #expect(try port("65535") == 65_535)
        let refused = #expect(throws: InvalidArgument.self) { try port("70000") }
        #expect(refused?.description == "--callback-port must be between 1 and 65535.")
    }

    @Test("an account: a handle (any case, a leading @) or a DID; other text names no signed-in account")
    func account() throws {
        #expect(try AccountArgument(parsing: "@Alice.Test").identifier() == ATIdentifier(validating: "alice.test"))
        #expect(try AccountArgument(parsing: "did:plc:abc").identifier() == ATIdentifier(validating: "did:plc:abc"))
        let unknown = AccountArgument(parsing: "not a handle")
        #expect(unknown.parsed == nil && unknown.text == "not a handle")
        let error = #expect(throws: (any Error).self) { try unknown.identifier() }
        #expect(CLIFailure(try #require(error)).status == .signInNeeded)
    }

    @Test("a query parameter is name=value; the value may be empty or hold '='")
    func queryParameter() throws {
        let parameter = try QueryParameter(parsing: "filter=a=b")
        #expect(parameter.name == "filter" && parameter.value == "a=b")
        #expect(try QueryParameter(parsing: "cursor=").value == "")
        for text in ["actor", "=x", ""] {
            let error = #expect(throws: InvalidArgument.self) { try QueryParameter(parsing: text) }
            #expect(error?.description == "Query parameters are name=value; “\(text)” is not.")
        }
    }

    @Test("a media type for --content-type; a control character is never repeated")
    func contentType() throws {
        #expect(try ContentType(parsing: "image/png").text == "image/png")
        let error = #expect(throws: InvalidArgument.self) { try ContentType(parsing: "text/plain\r\nX: \u{1B}[2J") }
        #expect(error?.description.hasPrefix("--content-type takes a media type such as image/png") == true)
        #expect(error?.description.contains("\u{1B}") == false)
        #expect(error?.description.contains("\r") == false)
    }

    @Test("a document's source: an http(s) URL, checked as one, or else a file")
    func documentSource() throws {
        #expect(try DocumentSource(parsing: "client.json") == .file("client.json"))
        let url = try #require(URL(string: "https://app.example.com/client-metadata.json"))
        #expect(try DocumentSource(parsing: url.absoluteString) == .url(url))
        let error = #expect(throws: InvalidArgument.self) { try DocumentSource(parsing: "https://a.example:99999/x") }
        #expect(error?.description.hasPrefix("The document's URL ") == true)
    }

    @Test("a refused value's control characters never reach the terminal, in the parser's own words either")
    func refusedValueIsPrintable() async throws {
        try await ScratchHome.with { scratch in
            let method = ["xrpc", "com.atproto.server.getSession"]
            for arguments in [
                ["--input", "{}", "--content-type", "text/plain\u{1B}[2J"],
                ["-H", "X-Test: a\u{1B}]0;title\u{07}"],
            ] {
                let result = try await scratch.atoauth(method + arguments)
                #expect(result.status == 2, "\(arguments)")
                #expect(result.stderr.contains("is invalid for"), "\(result.stderr)")
                #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(arguments)")
            }
        }
    }
}
