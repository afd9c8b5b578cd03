import ATOAuthTesting
import Foundation
import Keystore
import Testing

/// A scope a server chose reaches a command line atoauth prints for people to paste: nothing in it may run.
@Suite("Printed commands and a hostile granted scope", .serialized)
struct HostileScopeTests {
    @Test("after ScopeMissingError, the printed command holds only parsed permissions, quoted; pasted, it runs nothing")
    func pastedCommandRunsNothing() async throws {
        let refusal = ScriptedResponse.json(
            #"{"error":"ScopeMissingError","message":"Missing required scope \"repo:app.bsky.feed.post?action=create\""}"#,
            status: 403
        )
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(refusal)) { world, _ in
            let marker = world.directory.appendingPathComponent("pwned")
            let did = try #require(world.did("alice.test"))
            let hostile =
                "atproto repo:app.bsky.feed.like?action=create&action=delete $(touch${IFS}\(marker.path)) x'y;id"
            try world.rewriteSession(of: did) { $0["scope"] = hostile }

            let result = try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", #"{"a":1}"#)
            #expect(result.status == 3, "\(result.stderr)")
            let line = try #require(
                result.stderr.components(separatedBy: "Sign in again with it: ").last?
                    .split(separator: "\n").first.map(String.init)
            )
            #expect(!line.contains("touch") && !line.contains("x'y"), "unparsed tokens are left out: \(line)")

            // Pasted into a shell where `atoauth` only records its arguments.
            let bin = world.directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let stub = bin.appendingPathComponent("atoauth")
            try Data("#!/bin/sh\nprintf '%s\\n' \"$@\"\n".utf8).write(to: stub)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
            let pasted = try await CLIProcess.run(
                ["-c", line],
                environment: ["PATH": bin.path + ":/usr/bin:/bin"],
                executable: URL(fileURLWithPath: "/bin/bash")
            )
            #expect(pasted.status == 0, "\(pasted.stderr)")
            #expect(!FileManager.default.fileExists(atPath: marker.path), "the pasted command ran something else")
            #expect(
                pasted.stdout.split(separator: "\n") == [
                    "accounts", "add", "alice.test", "--scope",
                    "atproto repo:app.bsky.feed.like?action=create&action=delete repo:app.bsky.feed.post?action=create",
                ],
                "\(pasted.stdout)"
            )
        }
    }

    @Test("a stored scope outside RFC 6749's characters makes the session unreadable, not printed")
    func storedScopeRefused() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))
            try world.rewriteSession(of: did) { $0["scope"] = "atproto \u{1B}]0;owned\u{07} \"quoted\"" }
            let list = try await world.atoauth("accounts", "list")
            #expect(list.stderr.contains("! \(did) (the stored session is unreadable"), "\(list.stderr)")
            #expect(!list.stdout.contains("owned") && !list.stderr.contains("owned"))
        }
    }
}
