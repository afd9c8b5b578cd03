import ATClient
import Foundation
import HTTPTransport
import Testing

@Suite("XRPC error answers become XRPCError, safe to print")
struct XRPCErrorTests {
    private func answer(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    @Test("the error name and message are read from the body (atproto.com/specs/xrpc, error responses)")
    func readsBody() {
        let error = XRPCError(
            method: "com.atproto.repo.getRecord",
            response: answer(400, #"{"error":"RecordNotFound","message":"Could not locate record"}"#)
        )
        #expect(error.status == 400)
        #expect(error.error == "RecordNotFound")
        #expect(error.message == "Could not locate record")
        #expect(error.rateLimit == nil)
        #expect(
            error.description
                == "com.atproto.repo.getRecord failed (HTTP 400 RecordNotFound): Could not locate record."
        )
    }

    @Test(
        "a body that is not an XRPC error object leaves error and message empty",
        arguments: ["<html>Bad Gateway</html>", "", "[1,2]", #"{"error":42,"message":["x"]}"#, "{\"error\":"]
    )
    func notAnErrorObject(_ body: String) {
        let error = XRPCError(method: "app.bsky.actor.getProfile", response: answer(502, body))
        #expect(error.error == nil)
        #expect(error.message == nil)
        #expect(error.description == "app.bsky.actor.getProfile failed (HTTP 502).")
    }

    @Test("C0, C1 and bidirectional controls in the server's words never reach the terminal")
    func controlsStripped() throws {
        let hostile = "Bad\u{1B}[2J\u{9B}31m\u{202E}gnitirw\u{7}\r\nthing\u{0}"
        let body = try JSONSerialization.data(withJSONObject: ["error": "X\u{85}Y\u{2066}", "message": hostile])
        let error = XRPCError(method: "m.n.o", response: HTTPResponse(status: 400, body: body))
        for text in [error.error ?? "", error.message ?? "", error.description] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            #expect(!text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
            #expect(!text.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) })
        }
        #expect(error.message?.contains("gnitirw") == true)
    }

    @Test("a huge message is cut, so one answer cannot flood the terminal")
    func longMessageCut() {
        let body = #"{"error":"InvalidRequest","message":"\#(String(repeating: "a", count: 100_000))"}"#
        let error = XRPCError(method: "m.n.o", response: answer(400, body))
        #expect((error.message?.count ?? 0) <= 501)
        #expect(error.description.count < 700)
    }

    @Test("429 answers carry the rate-limit headers and say when the window resets")
    func rateLimited() {
        let headers: HTTPHeaders = [
            "ratelimit-limit": "3000", "ratelimit-remaining": "0", "ratelimit-reset": "1790000000",
            "ratelimit-policy": "3000;w=300",
        ]
        let error = XRPCError(
            method: "com.atproto.repo.createRecord",
            response: answer(429, #"{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}"#, headers: headers)
        )
        #expect(error.rateLimit?.limit == 3000)
        #expect(error.rateLimit?.remaining == 0)
        #expect(error.rateLimit?.reset == 1_790_000_000)
        #expect(error.rateLimit?.policy == "3000;w=300")
        #expect(error.description.hasSuffix("Rate limited until 1790000000 (Unix time)."))
        let malformed = XRPCError(
            method: "m.n.o",
            response: answer(429, "", headers: ["ratelimit-reset": "soon"])
        )
        #expect(malformed.rateLimit == nil)
    }
}

@Suite("XRPCResponse")
struct XRPCResponseTests {
    @Test("decodes JSON, and pretty-prints it with sorted keys; other bodies have no pretty form")
    func decoding() throws {
        let response = XRPCResponse(http: HTTPResponse(status: 200, body: Data(#"{"b":1,"a":"x/y"}"#.utf8)))
        #expect(try response.decode([String: AnyCodableValue].self)["a"] == .text("x/y"))
        #expect(response.prettyJSON == "{\n  \"a\" : \"x/y\",\n  \"b\" : 1\n}")
        #expect(XRPCResponse(http: HTTPResponse(status: 200, body: Data([0xFF, 0xD8]))).prettyJSON == nil)
    }
}

/// A JSON value of either kind the test reads.
enum AnyCodableValue: Decodable, Equatable {
    case text(String)
    case number(Double)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }
}
