import ATOAuthTesting
import Foundation
import Testing

/// What a hostile PDS puts in its answers: a screen clear, an OSC title change, an 8-bit CSI, a right-to-left
/// override and the Unicode line and paragraph separators.
private let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}\u{9B}31m\u{202E}\u{2028}\u{2029}"

/// Whether `text` holds any of the characters that must never reach a terminal as they are.
private func holdsControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
        (scalar.value < 0x20 && scalar.value != 0x0A && scalar.value != 0x09) || (0x7F...0x9F).contains(scalar.value)
            || [0x202E, 0x2028, 0x2029].contains(scalar.value)
    }
}

@Suite("Every line atoauth prints is made safe for a terminal, on a pipe too; only --raw writes bytes as sent")
struct TerminalSafetyTests {
    @Test("JSON from the PDS: controls, C1, bidi and line separators are escaped, and the value is the same")
    func jsonAnswer() async throws {
        let object = ["displayName": "Mallory" + hostile]
        let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(.json(body))) { world, _ in
            for arguments in [["xrpc", "app.bsky.actor.getProfile"], ["xrpc", "app.bsky.actor.getProfile", "--json"]] {
                let result = try await world.atoauth(arguments)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(!holdsControls(result.stdout), "\(result.stdout.debugDescription)")
                #expect(result.stdout.contains("\\u009B") && result.stdout.contains("\\u202E"))
                #expect(result.stdout.contains("\\u2028"), "\(result.stdout)")
                let read = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String]
                #expect(read == object)
            }
        }
    }

    @Test("text from the PDS is written made safe on a pipe, with a note; --raw writes it as sent")
    func textAnswer() async throws {
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(.text("hello" + hostile + "world"))) { world, _ in
            let readable = try await world.atoauth(["xrpc", "app.bsky.actor.getProfile"])
            #expect(readable.status == 0, "\(readable.stderr)")
            #expect(!holdsControls(readable.stdout), "\(readable.stdout.debugDescription)")
            #expect(readable.stdout.hasPrefix("hello") && readable.stdout.contains("world"))
            #expect(readable.stderr.contains("use --raw"), "\(readable.stderr)")
            let raw = try await world.atoauth(["xrpc", "app.bsky.actor.getProfile", "--raw"])
            #expect(raw.stdout == "hello" + hostile + "world")
        }
    }

    @Test("an XRPC error's message from the PDS reaches stderr without controls, in text and in --json")
    func errorMessage() async throws {
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: [
                "error": "InvalidRequest", "message": "bad" + hostile + "thing",
            ]),
            as: UTF8.self
        )
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(.json(body, status: 400))) { world, _ in
            let text = try await world.atoauth(["xrpc", "app.bsky.actor.getProfile"])
            #expect(text.status != 0)
            #expect(text.stderr.contains("bad"), "\(text.stderr)")
            #expect(!holdsControls(text.stderr), "\(text.stderr.debugDescription)")
            let json = try await world.atoauth(["xrpc", "app.bsky.actor.getProfile", "--json"])
            #expect(!holdsControls(json.stderr) && !holdsControls(json.stdout), "\(json.stderr.debugDescription)")
        }
    }
}
