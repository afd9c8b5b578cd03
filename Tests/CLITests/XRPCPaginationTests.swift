import ATOAuthTesting
import Foundation
import Synchronization
import Testing

/// `xrpc --paginate`: follows cursors, prints a document per page or one merged document, and never loops.
@Suite("xrpc --paginate", .serialized)
struct XRPCPaginationTests {
    @Test("pages of listRecords one document each, or merged with --json; a starting cursor is honoured")
    func sandboxPages() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            for index in 1...7 {
                let record =
                    #"{"repo":"\#(did)","collection":"app.bsky.feed.post","rkey":"post\#(index)","#
                    + #""record":{"text":"number \#(index)"}}"#
                #expect(try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", record).status == 0)
            }
            let list = [
                "xrpc", "com.atproto.repo.listRecords", "repo=\(did)", "collection=app.bsky.feed.post", "limit=3",
            ]
            let expected = (1...7).reversed().map { "post\($0)" }

            let pages = try await world.atoauth(list + ["--paginate"])
            #expect(pages.status == 0, "\(pages.stderr)")
            let documents = try Self.documents(pages.stdout)
            #expect(documents.map { ($0["records"] as? [Any])?.count } == [3, 3, 1])
            #expect(documents.flatMap(Self.rkeys) == expected)
            #expect(documents.map { $0["cursor"] != nil } == [true, true, false])

            let merged = try await world.atoauth(list + ["--paginate", "--json"])
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout.split(separator: "\n").count == 1)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any]
            )
            #expect(Self.rkeys(object) == expected)
            #expect(object["cursor"] == nil)

            let resumed = try await world.atoauth(list + ["cursor=post5", "--paginate", "--json"])
            let rest = try #require(try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [String: Any])
            #expect(Self.rkeys(rest) == ["post4", "post3", "post2", "post1"])

            let limited = try await world.atoauth(list + ["--paginate", "--max-pages", "2"])
            #expect(limited.status == 1)
            #expect(try Self.documents(limited.stdout).flatMap(Self.rkeys) == Array(expected.prefix(6)))
            #expect(limited.stderr.contains("Stopped after 2 pages (--max-pages)"), "\(limited.stderr)")
            #expect(limited.stderr.contains("cursor=post2"), "\(limited.stderr)")

            let limitedJSON = try await world.atoauth(list + ["--paginate", "--max-pages", "2", "--json"])
            #expect(limitedJSON.status == 1)
            let partial = try #require(
                try JSONSerialization.jsonObject(with: Data(limitedJSON.stdout.utf8)) as? [String: Any]
            )
            #expect(Self.rkeys(partial).count == 6)
            #expect(partial["cursor"] as? String == "post2", "the cursor to continue from")
            let error = try #require(
                try JSONSerialization.jsonObject(with: Data(limitedJSON.stderr.utf8)) as? [String: Any]
            )
            #expect(error["exit"] as? Int == 1)
        }
    }

    @Test("a server that repeats a cursor is stopped after the repeat, with what was read printed")
    func loopingServer() async throws {
        let answers = ScriptedPages([
            #"{"items":[1,2],"cursor":"a"}"#, #"{"items":[3],"cursor":"b"}"#, #"{"items":[4],"cursor":"a"}"#,
            #"{"items":[5]}"#,
        ])
        try await CLIWorld.withScriptedPDS(answers.handler) { world, pds in
            let result = try await world.atoauth("xrpc", "com.example.feed.list", "--paginate", "--json")
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("sent the cursor “a” a second time; stopped after 3 pages"),
                "\(result.stderr)"
            )
            let merged = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(merged?["items"] as? [Int] == [1, 2, 3, 4])
            #expect(pds.requests.map(\.query) == [nil, "cursor=a", "cursor=b"])
        }
    }

    @Test("an empty cursor ends paging; other fields keep the first page's value; parameters are kept")
    func emptyCursor() async throws {
        let answers = ScriptedPages([
            #"{"subject":{"did":"did:plc:x"},"follows":[{"n":1}],"labels":[],"cursor":"c1"}"#,
            #"{"subject":{"did":"did:plc:other"},"follows":[{"n":2}],"labels":["l"],"cursor":""}"#,
        ])
        try await CLIWorld.withScriptedPDS(answers.handler) { world, pds in
            let result = try await world.atoauth("xrpc", "com.example.graph.list", "actor=a b", "--paginate", "--json")
            #expect(result.status == 0, "\(result.stderr)")
            let merged = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            )
            #expect((merged["follows"] as? [[String: Int]])?.map { $0["n"] } == [1, 2])
            #expect(merged["labels"] as? [String] == ["l"])
            #expect((merged["subject"] as? [String: String])?["did"] == "did:plc:x")
            #expect(merged["cursor"] == nil)
            #expect(pds.requests.map(\.query) == ["actor=a%20b", "actor=a%20b&cursor=c1"])
        }
    }

    @Test("a page that is not a JSON object, or an error answer, stops paging after printing what was read")
    func brokenPage() async throws {
        let answers = ScriptedPages([#"{"items":[1],"cursor":"a"}"#, "[1,2]"])
        try await CLIWorld.withScriptedPDS(answers.handler) { world, _ in
            let result = try await world.atoauth("xrpc", "com.example.feed.list", "--paginate")
            #expect(result.status == 1)
            #expect(try Self.documents(result.stdout).map { $0["items"] as? [Int] } == [[1]])
            #expect(result.stderr.contains("Page 2 of com.example.feed.list is not a JSON object"), "\(result.stderr)")
        }
        let failing = ScriptedPages([#"{"items":[1],"cursor":"a"}"#], then: .json(#"{"error":"Boom"}"#, status: 500))
        try await CLIWorld.withScriptedPDS(failing.handler) { world, _ in
            let result = try await world.atoauth("xrpc", "com.example.feed.list", "--paginate", "--json")
            #expect(result.status == 1)
            #expect(result.stdout == #"{"items":[1]}"# + "\n")
            #expect(result.stderr.contains("HTTP 500 Boom"), "\(result.stderr)")
        }
    }

    @Test("--paginate is refused for a procedure and with --raw")
    func refused() async throws {
        try await ScratchHome.with { scratch in
            for (arguments, message) in [
                (["--input", "{}"], "--paginate follows the cursor of a query"),
                (["--post"], "--paginate follows the cursor of a query"),
                (["--raw"], "--raw prints one answer as received; it cannot be combined with --paginate."),
            ] {
                let result = try await scratch.atoauth(["xrpc", "com.example.feed.list", "--paginate"] + arguments)
                #expect(result.status == 2)
                #expect(result.stderr.contains(message), "\(result.stderr)")
            }
        }
    }

    /// The JSON documents printed one after another, each indented and ending with `}` on its own line.
    static func documents(_ output: String) throws -> [[String: Any]] {
        try output.components(separatedBy: "\n}\n").filter { !$0.isEmpty }.map { text in
            try #require(try JSONSerialization.jsonObject(with: Data((text + "\n}").utf8)) as? [String: Any])
        }
    }

    /// The record keys of a listRecords page.
    static func rkeys(_ page: [String: Any]) -> [String] {
        ((page["records"] as? [[String: Any]]) ?? []).compactMap { ($0["uri"] as? String)?.split(separator: "/").last }
            .map(String.init)
    }
}

/// JSON answers given in turn, then `last` for every request after them.
final class ScriptedPages: Sendable {
    private let answers: Mutex<[ScriptedResponse]>
    private let last: ScriptedResponse

    init(_ pages: [String], then last: ScriptedResponse = .json(#"{"error":"TooMany"}"#, status: 400)) {
        answers = Mutex(pages.map { ScriptedResponse.json($0) })
        self.last = last
    }

    /// A server handler giving the answers in turn.
    var handler: LoopbackHTTPServer.Handler {
        { _ in self.answers.withLock { $0.isEmpty ? self.last : $0.removeFirst() } }
    }
}
