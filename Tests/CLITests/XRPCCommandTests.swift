import Foundation
import Testing

@Suite("The CLI calls XRPC with DPoP-bound tokens", .serialized)
struct XRPCCommandTests {
    @Test("a query, a procedure from --input, from a file and from stdin, and an XRPC error exiting 1")
    func queriesAndProcedures() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let did = try #require(world.did("alice.test"))

            let session = try await world.atoauth("xrpc", "com.atproto.server.getSession")
            #expect(session.status == 0, "\(session.stderr)")
            #expect(session.stdout.contains("\"did\" : \"\(did)\""))

            let record = #"{"repo":"\#(did)","collection":"app.bsky.feed.post","rkey":"one","record":{"text":"hi"}}"#
            let created = try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", record)
            #expect(created.status == 0, "\(created.stderr)")
            #expect(created.stdout.contains("at://\(did)/app.bsky.feed.post/one"))

            let file = world.directory.appendingPathComponent("record.json")
            try Data(record.replacingOccurrences(of: "\"one\"", with: "\"two\"").utf8).write(to: file)
            #expect(
                try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", "@\(file.path)").status == 0
            )
            let fromStdin = try await world.atoauth(
                "xrpc",
                "com.atproto.repo.createRecord",
                "--input",
                "-",
                stdin: Data(record.replacingOccurrences(of: "\"one\"", with: "\"three\"").utf8)
            )
            #expect(fromStdin.status == 0, "\(fromStdin.stderr)")

            let listed = try await world.atoauth(
                "xrpc",
                "com.atproto.repo.listRecords",
                "repo=\(did)",
                "collection=app.bsky.feed.post"
            )
            let page = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
            #expect((page["records"] as? [Any])?.count == 3)

            let missing = try await world.atoauth(
                "xrpc",
                "com.atproto.repo.getRecord",
                "repo=\(did)",
                "collection=app.bsky.feed.post",
                "rkey=nope"
            )
            #expect(missing.status == 1)
            #expect(missing.stdout.isEmpty)
            #expect(missing.stderr.contains("RecordNotFound"))

            let profile = try await world.atoauth("xrpc", "app.bsky.actor.getProfile", "actor=alice.test")
            #expect(profile.status == 0, "\(profile.stderr)")
            #expect(
                try await world.atoauth("xrpc", "com.atproto.repo.createRecord", "--input", "{not json").status == 2
            )
        }
    }

    @Test("no token, proof or key appears in any output, even with -v; store files are 0600/0700 and hold no token")
    func secretsStaySecret() async throws {
        try await CLIWorld.with { world in
            var outputs: [String] = []
            let added = try await world.atoauth("accounts", "add", "alice.test", "-v")
            #expect(added.status == 0, "\(added.stderr)")
            outputs += [added.stdout, added.stderr]
            for arguments in [
                ["whoami", "-v"], ["accounts", "list", "--json"], ["xrpc", "com.atproto.server.getSession", "-v"],
            ] {
                let result = try await CLIProcess.run(arguments, environment: world.environment)
                #expect(result.status == 0, "\(result.stderr)")
                outputs += [result.stdout, result.stderr]
            }
            #expect(outputs[1].contains("→ POST"), "verbose mode logs exchanges")

            let did = try #require(world.did("alice.test"))
            let session = try world.storedSession(did)
            let secrets = [session["accessToken"], session["refreshToken"]].compactMap { $0 as? String }
            #expect(secrets.count == 2)
            for output in outputs {
                for secret in secrets { #expect(!output.contains(secret)) }
                #expect(!output.contains("eyJ0eXAiOiJkcG9wK2p3dCI"), "a DPoP proof header leaked")
                #expect(!output.contains("DPoP ey") && !output.lowercased().contains("code_verifier="))
            }
            for file in try world.files() {
                let isDirectory = (try? file.url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
                #expect(file.mode & 0o077 == 0, "\(file.url.path) has mode \(String(file.mode, radix: 8))")
                if isDirectory { #expect(file.mode == 0o700) } else { #expect(file.mode == 0o600) }
                for secret in secrets { #expect(file.bytes.range(of: Data(secret.utf8)) == nil) }
            }
        }
    }
}
