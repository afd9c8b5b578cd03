import Foundation
import Testing
import WireFormat

@Suite("Form encoding")
struct FormEncodingTests {
    @Test("parsing decodes plus and percent escapes and refuses repeated parameters")
    func parsing() throws {
        let parsed = try FormEncoding.parse("a=1+2&b=%C3%A9%2F&c&d=%c3%a9")
        #expect(parsed == ["a": "1 2", "b": "é/", "c": "", "d": "é"])
        #expect(throws: FormEncoding.Failure.self) { try FormEncoding.parse("a=1&a=2") }
    }

    @Test(
        "a malformed escape or bytes that are not UTF-8 are refused",
        arguments: ["a=%G1", "a=%", "a=%4", "a=%FF%FE"]
    )
    func malformed(_ text: String) {
        #expect(throws: FormEncoding.Failure.self) { try FormEncoding.parsePairs(text) }
    }

    @Test("writing escapes everything but the unreserved characters (RFC 3986 §2.3)")
    func writing() {
        #expect(
            FormEncoding.encode([("redirect_uri", "http://127.0.0.1/a b"), ("scope", "atproto+x&y=z~._-")])
                == "redirect_uri=http%3A%2F%2F127.0.0.1%2Fa%20b&scope=atproto%2Bx%26y%3Dz~._-"
        )
        #expect(String(decoding: FormEncoding.body([("a", "é")]), as: UTF8.self) == "a=%C3%A9")
    }

    @Test("what is written reads back unchanged", arguments: ["", "plain", "a b+c&d=e/f?g#h", "é漢字🙂", "%41%"])
    func roundTrip(_ value: String) throws {
        let parsed = try FormEncoding.parsePairs(FormEncoding.encode([("k", value)]))
        #expect(parsed.count == 1)
        #expect(parsed.first?.1 == value)
        #expect(try FormEncoding.unescape(FormEncoding.escape(value)) == value)
    }
}

@Suite("Terminal-safe text")
struct TerminalTextTests {
    @Test(
        "C0, DEL, C1 and bidi controls are removed; tabs and line breaks become spaces",
        arguments: [
            ("a\u{1B}[31mred", "a[31mred"), ("bell\u{07}", "bell"), ("del\u{7F}", "del"),
            ("csi\u{9B}2J", "csi2J"), ("nel\u{85}x", "nelx"), ("\u{202E}evil\u{202C}", "evil"),
            ("iso\u{2066}late\u{2069}", "isolate"), ("mark\u{200F}", "mark"), ("a\tb\nc\r", "a b c "),
            ("ok ✓ é", "ok ✓ é"), ("line\u{2028}para\u{2029}end", "line para end"),
        ]
    )
    func sanitized(_ input: String, _ expected: String) {
        #expect(TerminalText.sanitized(input) == expected)
        #expect(TerminalText.isSafe(expected))
    }

    @Test("printable text keeps tabs and line feeds, drops every other control, and is never cut")
    func printable() {
        let input = "a\tb\nc\r\u{1B}]0;t\u{07}\u{9B}2J\u{202E}d\u{2028}e" + String(repeating: "x", count: 500)
        #expect(TerminalText.printable(input) == "a\tb\nc]0;t2Jd e" + String(repeating: "x", count: 500))
    }

    @Test("long text is cut at the limit and marked")
    func limit() {
        #expect(TerminalText.sanitized(String(repeating: "x", count: 10), limit: 4) == "xxxx…")
        #expect(TerminalText.sanitized("short", limit: 10) == "short")
    }

    @Test("escaped JSON prints no control or bidi character and parses to the same value")
    func escapedJSON() throws {
        let value = ["text": "a\u{1B}[2J\u{9B}31m\u{202E}b\u{7F}\u{2066}c\u{2028}\u{2029}", "plain": "é ok"]
        let data = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])
        let escaped = TerminalText.escapedJSON(String(decoding: data, as: UTF8.self))
        #expect(!escaped.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0x1B })
        #expect(!escaped.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || $0.value == 0x2066 })
        #expect(escaped.contains("\\u009B") && escaped.contains("\\u202E") && escaped.contains("\n"))
        #expect(escaped.contains("\\u2028") && escaped.contains("\\u2029"))
        let parsed = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(parsed == value)
    }
}

@Suite("HTML text and error bodies")
struct HTMLAndErrorBodyTests {
    @Test("the five HTML-significant characters are escaped")
    func html() {
        #expect(HTMLText.escaped(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test("OAuth and XRPC error bodies are read; anything else gives nothing")
    func errorBodies() {
        let oauth = ServerErrorBody(Data(#"{"error":"invalid_grant","error_description":"spent"}"#.utf8))
        #expect(oauth.error == "invalid_grant")
        #expect(oauth.explanation == "spent")
        let xrpc = ServerErrorBody(Data(#"{"error":"InvalidRequest","message":"bad repo"}"#.utf8))
        #expect(xrpc.message == "bad repo")
        #expect(xrpc.explanation == "bad repo")
        for body in ["<html>", "[1]", #"{"error":42}"#, ""] {
            let parsed = ServerErrorBody(Data(body.utf8))
            #expect(parsed.error == nil)
        }
        let huge = Data(
            (#"{"error":"x","pad":""# + String(repeating: "a", count: ServerErrorBody.maximumSize) + #""}"#).utf8
        )
        #expect(ServerErrorBody(huge).error == nil)
    }
}
