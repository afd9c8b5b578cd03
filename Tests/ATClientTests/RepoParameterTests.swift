import Foundation
import Testing

@testable import ATClient

@Suite("The repo a request names, for routing")
struct RepoParameterTests {
    private let json = "application/json"

    @Test("the query parameter wins over the body")
    func queryFirst() {
        let body = Data(#"{"repo":"bob.test"}"#.utf8)
        #expect(RepoParameter.find([("collection", "x"), ("repo", "alice.test")], body, json) == "alice.test")
        #expect(RepoParameter.find([], body, json) == "bob.test")
        #expect(RepoParameter.find([], body, "application/json; charset=utf-8") == "bob.test")
        // Type and subtype are case-insensitive (RFC 9110 §8.3.1).
        #expect(RepoParameter.find([], body, "Application/JSON") == "bob.test")
    }

    @Test(
        "a body is read only when it is a JSON object with a string repo, within the size cap",
        arguments: [
            (#"{"repo":"bob.test"}"#, "text/plain"),
            (#"{"repo":"bob.test"}"#, "application/jsonx"),
            (#"{"repo":42}"#, "application/json"),
            (#"["repo","bob.test"]"#, "application/json"),
            (#"{"record":{"repo":"bob.test"}}"#, "application/json"),
            ("not json", "application/json"),
            (
                #"{"repo":"bob.test","pad":"\#(String(repeating: "x", count: RepoParameter.maximumBodySize))"}"#,
                "application/json"
            ),
        ]
    )
    func bodyIgnored(_ body: String, _ contentType: String) {
        #expect(RepoParameter.find([], Data(body.utf8), contentType) == nil)
    }

    @Test("no parameters and no body name no repo")
    func nothing() {
        #expect(RepoParameter.find([], nil, nil) == nil)
        #expect(RepoParameter.find([], Data(), json) == nil)
    }
}
