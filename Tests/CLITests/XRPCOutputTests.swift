import ATOAuthTesting
import Foundation
import Testing

/// How `xrpc` prints an answer: indented JSON, one line with `--json`, the bytes as received with `--raw`.
@Suite("xrpc output formats", .serialized)
struct XRPCOutputTests {
    /// Every byte value, as a server might send a blob.
    static let binary = Data((0...255).map(UInt8.init) + [0x1B, 0x5B, 0x32, 0x4A, 0x9B])

    @Test("--raw writes the body exactly, binary or JSON, with no newline added")
    func raw() async throws {
        let json = Data(#"{"b":1,  "a":"\u001b"}"#.utf8)
        try await Self.withAnswers([
            "/xrpc/com.example.blob.get": ScriptedResponse(
                headers: [("Content-Type", "application/octet-stream")],
                body: Self.binary
            ),
            "/xrpc/com.example.json.get": ScriptedResponse(headers: [("Content-Type", "application/json")], body: json),
        ]) { world in
            let blob = try await world.atoauth("xrpc", "com.example.blob.get", "--raw")
            #expect(blob.status == 0, "\(blob.stderr)")
            #expect(blob.stdoutBytes == Self.binary)
            let exact = try await world.atoauth("xrpc", "com.example.json.get", "--raw")
            #expect(exact.stdoutBytes == json)
            let readable = try await world.atoauth("xrpc", "com.example.json.get")
            #expect(readable.stdout == "{\n  \"a\" : \"\\u001b\",\n  \"b\" : 1\n}\n")
        }
    }

    @Test("an answer of several MiB is printed whole; --max-response lowers the limit, and the refusal names it")
    func largeAnswer() async throws {
        let blob = Data.patterned(3 << 20, step: 31)
        try await Self.withAnswers([
            "/xrpc/com.example.blob.get": ScriptedResponse(
                headers: [("Content-Type", "application/octet-stream")],
                body: blob
            )
        ]) { world in
            let whole = try await world.atoauth("xrpc", "com.example.blob.get", "--raw")
            #expect(whole.status == 0, "\(whole.stderr)")
            #expect(whole.stdoutBytes == blob)
            let capped = try await world.atoauth("xrpc", "com.example.blob.get", "--raw", "--max-response", "1M")
            #expect(capped.status == 1)
            #expect(capped.stdoutBytes.isEmpty)
            #expect(capped.stderr.contains("larger than the 1 MiB limit"), "\(capped.stderr)")
            #expect(capped.stderr.contains("raise --max-response"))
            let bad = try await world.atoauth("xrpc", "com.example.blob.get", "--max-response", "1T")
            #expect(bad.status == 2, "\(bad.stderr)")
        }
    }

    @Test("--json prints JSON on one line, and describes an answer that is not JSON")
    func json() async throws {
        try await Self.withAnswers([
            "/xrpc/com.example.blob.get": ScriptedResponse(headers: [("Content-Type", "image/png")], body: Self.binary),
            "/xrpc/com.example.json.get": .json(#"{"list":[1,2],"text":"x\u202Ey"}"#),
            "/xrpc/com.example.empty.do": ScriptedResponse(status: 200),
        ]) { world in
            let json = try await world.atoauth("xrpc", "com.example.json.get", "--json")
            #expect(json.stdout == #"{"list":[1,2],"text":"x\u202Ey"}"# + "\n")
            let blob = try await world.atoauth("xrpc", "com.example.blob.get", "--json")
            let described = try #require(
                try JSONSerialization.jsonObject(with: Data(blob.stdout.utf8)) as? [String: Any]
            )
            #expect(described["contentType"] as? String == "image/png")
            #expect(described["size"] as? Int == Self.binary.count)
            #expect((described["base64"] as? String).flatMap { Data(base64Encoded: $0) } == Self.binary)
            let empty = try await world.atoauth("xrpc", "com.example.empty.do", "--post", "--json")
            #expect(empty.status == 0 && empty.stdout.isEmpty, "an answer without a body prints nothing")
            #expect(try await world.atoauth("xrpc", "com.example.json.get", "--raw", "--json").status == 2)
        }
    }

    @Test("with --json, a server's error answer is one line on stderr with its HTTP status and XRPC error name")
    func jsonError() async throws {
        try await Self.withAnswers([
            "/xrpc/com.example.record.get": .json(
                #"{"error":"RecordNotFound","message":"no such record"}"#,
                status: 400
            )
        ]) { world in
            let result = try await world.atoauth("xrpc", "com.example.record.get", "--json")
            #expect(result.status == 1 && result.stdout.isEmpty)
            let line = result.stderr.trimmingCharacters(in: .newlines)
            #expect(!line.contains("\n"), "one line: \(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["error"] as? String == "failed" && object["exit"] as? Int == 1)
            #expect(object["status"] as? Int == 400 && object["xrpcError"] as? String == "RecordNotFound")
            #expect((object["message"] as? String)?.contains("no such record") == true)
            #expect(line.hasPrefix(#"{"error":"failed","exit":1,"message":"#), "keys in a stable order: \(line)")
        }
    }

    @Test("an empty object or array prints on one line, as {} and [], also inside indented JSON")
    func emptyJSON() async throws {
        try await Self.withAnswers([
            "/xrpc/com.example.empty.do": .json("{}"),
            "/xrpc/com.example.nested.get": .json(#"{"items":[],"meta":{}}"#),
        ]) { world in
            #expect(try await world.atoauth("xrpc", "com.example.empty.do", "--post").stdout == "{}\n")
            let nested = try await world.atoauth("xrpc", "com.example.nested.get").stdout
            #expect(nested == "{\n  \"items\" : [],\n  \"meta\" : {}\n}\n", "\(nested)")
        }
    }

    @Test("on a terminal, bytes that would drive it are shown made safe, even with --raw")
    func terminal() async throws {
        try await Self.withAnswers([
            "/xrpc/com.example.blob.get": ScriptedResponse(
                headers: [("Content-Type", "text/plain")],
                body: Data("ok\u{1B}[2Jgone\u{9B}31m".utf8)
            )
        ]) { world in
            let executable = try #require(CLIProcess.executable)
            for extra in [[], ["--raw"]] {
                let result = try await CLIProcess.run(
                    ["python3", HelpText.ptyScript.path, "80", executable.path, "xrpc", "com.example.blob.get"] + extra,
                    environment: world.environment,
                    executable: URL(fileURLWithPath: "/usr/bin/env")
                )
                #expect(result.status == 0, "\(result.stdout)")
                #expect(result.stdout.contains("ok[2Jgone31m"), "\(result.stdout)")
                // The note is a message, wrapped to the terminal's 80 columns.
                let screen = result.stdout.replacingOccurrences(of: "\r\n", with: " ")
                #expect(screen.contains("shown made safe; redirect stdout for them as sent"), "\(result.stdout)")
                #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
            }
        }
    }

    /// Runs `body` with alice's session pointed at a server answering each path from `answers` (404 otherwise).
    static func withAnswers(
        _ answers: [String: ScriptedResponse],
        _ body: (CLIWorld) async throws -> Void
    ) async throws {
        let handler: LoopbackHTTPServer.Handler = { request in
            answers[request.path] ?? .json(#"{"error":"MethodNotImplemented"}"#, status: 404)
        }
        try await CLIWorld.withScriptedPDS(handler) { world, _ in try await body(world) }
    }
}
