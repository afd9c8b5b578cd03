import ATOAuthTesting
import Foundation
import Testing

/// `xrpc --input`: files, standard input and inline JSON, with the content type each is sent as.
@Suite("xrpc sends bodies as they are, with the right content type", .serialized)
struct XRPCInputTests {
    /// Bytes that look like a PNG and hold every byte value, line breaks and NULs included.
    static let image = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0...255).map(UInt8.init))

    @Test("uploadBlob takes a file with the type of its extension, stdin with --content-type, and JSON stays JSON")
    func uploads() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let upload = ["xrpc", "com.atproto.repo.uploadBlob", "--input"]
            let cases: [(file: String, bytes: Data, extra: [String], type: String)] = [
                ("photo.png", Self.image, [], "image/png"), ("photo.JPEG", Self.image, [], "image/jpeg"),
                ("clip.mp4", Self.image, [], "video/mp4"), ("data.xyz", Self.image, [], "application/octet-stream"),
                ("photo.png", Self.image, ["--content-type", "image/webp"], "image/webp"),
                ("note.txt", Data(#"{"text":"hi"}"#.utf8), [], "application/json"),
                ("note.txt", Data(#"{"text":"hi"}"#.utf8), ["--content-type", "text/plain"], "text/plain"),
            ]
            var references: [String] = []
            for (file, bytes, extra, type) in cases {
                let url = world.directory.appendingPathComponent(file)
                try bytes.write(to: url)
                let result = try await world.atoauth(upload + ["@\(url.path)"] + extra)
                let blob = try Self.blob(result)
                #expect(blob["mimeType"] as? String == type, "\(file) \(extra)")
                #expect(blob["size"] as? Int == bytes.count)
                references.append(((blob["ref"] as? [String: String])?["$link"]) ?? "")
            }
            let piped = try await world.atoauth(upload + ["-", "--content-type", "image/png"], stdin: Self.image)
            let blob = try Self.blob(piped)
            #expect(blob["mimeType"] as? String == "image/png" && blob["size"] as? Int == Self.image.count)
            #expect((blob["ref"] as? [String: String])?["$link"] == references[0], "the same bytes, the same CID")
            let unnamed = try Self.blob(try await world.atoauth(upload + ["-"], stdin: Self.image))
            #expect(unnamed["mimeType"] as? String == "application/octet-stream")
        }
    }

    @Test("the bytes reach the PDS exactly, with their content type, from a file and from stdin")
    func bytesOnTheWire() async throws {
        let answer = ScriptedResponse.json(#"{"blob":{"$type":"blob"}}"#)
        try await CLIWorld.withScriptedPDS(LoopbackHTTPServer.always(answer)) { world, pds in
            let file = world.directory.appendingPathComponent("photo.gif")
            try Self.image.write(to: file)
            let upload = ["xrpc", "com.atproto.repo.uploadBlob", "--input"]
            #expect(try await world.atoauth(upload + ["@\(file.path)"]).status == 0)
            #expect(try await world.atoauth(upload + ["-"], stdin: Self.image).status == 0)
            let requests = pds.requests
            #expect(requests.map(\.target) == Array(repeating: "/xrpc/com.atproto.repo.uploadBlob", count: 2))
            #expect(requests.map(\.method) == ["POST", "POST"])
            #expect(requests.map(\.body) == [Self.image, Self.image])
            #expect(requests.map { $0.header("Content-Type") } == ["image/gif", "application/octet-stream"])
            #expect(requests.allSatisfy { $0.header("Authorization")?.hasPrefix("DPoP ") == true })
        }
    }

    @Test("a blob upload the grant does not cover exits 3 before sending, with the command to ask again")
    func blobPermission() async throws {
        try await CLIWorld.with { world in
            let scope = "atproto repo:app.bsky.feed.post?action=create"
            #expect(try await world.atoauth("accounts", "add", "alice.test", "--scope", scope).status == 0)
            let file = world.directory.appendingPathComponent("photo.png")
            try Self.image.write(to: file)
            let before = try await world.sandbox.counters()
            let result = try await world.atoauth("xrpc", "com.atproto.repo.uploadBlob", "--input", "@\(file.path)")
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("needs the permission blob:image/png"), "\(result.stderr)")
            #expect(result.stderr.contains("nothing was sent"))
            #expect(result.stderr.contains("atoauth accounts add alice.test --scope 'atproto "), "\(result.stderr)")
            #expect(try await world.sandbox.counters().xrpcRequestsReceived == before.xrpcRequestsReceived)
        }
    }

    @Test("blob:image/* covers an image whatever its extension says, and no video")
    func blobPattern() async throws {
        try await CLIWorld.with { world in
            #expect(
                try await world.atoauth("accounts", "add", "alice.test", "--scope", "atproto blob:image/*").status == 0
            )
            let file = world.directory.appendingPathComponent("upload.bin")
            try Self.image.write(to: file)
            let upload = ["xrpc", "com.atproto.repo.uploadBlob", "--input", "@\(file.path)", "--content-type"]
            let image = try await world.atoauth(upload + ["image/png"])
            #expect(image.status == 0, "\(image.stderr)")
            let video = try await world.atoauth(upload + ["video/mp4"])
            #expect(video.status == 3)
            #expect(video.stderr.contains("blob:video/mp4"), "\(video.stderr)")
        }
    }

    @Test("an input that cannot be read or sent is a usage error that says why, and nothing is sent")
    func badInput() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let plain = world.directory.appendingPathComponent("plain.txt")
            try Data("hello".utf8).write(to: plain)
            let broken = world.directory.appendingPathComponent("broken.json")
            try Data("{\"text\":".utf8).write(to: broken)
            let before = try await world.sandbox.counters()
            let upload = ["xrpc", "com.atproto.repo.uploadBlob"]
            for (arguments, message) in [
                (["--input", "@/nonexistent/photo.png"], "Cannot read the input file /nonexistent/photo.png: No such"),
                (["--input", "@\(world.directory.path)"], "it is a directory"),
                (["--input", "@\(plain.path)/photo.png"], "Not a directory"),
                (["--input", "@"], "--input @ needs a file name"),
                (["--input", "@\(broken.path)"], "--input is not valid JSON, but would be sent as application/json"),
                (["--input", "hello"], "--input is not valid JSON"),
                (["--input", "{}", "--content-type", "image"], "--content-type takes a media type such as image/png"),
                (["--input", "{}", "--content-type", "text/plain\r\nX: y"], "--content-type takes a media type"),
                (["--content-type", "image/png"], "--content-type describes the body; give --input too."),
            ] {
                let result = try await world.atoauth(upload + arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            }
            #expect(try await world.sandbox.counters().xrpcRequestsReceived == before.xrpcRequestsReceived)
            // Inline text that is not JSON goes as the type given.
            let text = try await world.atoauth(upload + ["--input", "hello", "--content-type", "text/plain"])
            #expect(try Self.blob(text)["mimeType"] as? String == "text/plain")
        }
    }

    @Test(
        "invalid JSON in --input says the line and column where it goes wrong, inline and from a .json file",
        arguments: [
            ("{\"text\": \"hi\",\n  \"n\": 1,\n  \"x\": tru}", "line 3, column 11: expected `true`, found `}`"),
            ("[1, 2,, 3]", "line 1, column 7: expected a value, found `,`"),
            ("{\"a\": 1\n", "line 2, column 1: expected `,` or `}`, found the end of the text"),
            ("{\"é\": \"ü\" \"b\": 2}", "line 1, column 11: expected `,` or `}`, found `\"`"),
            ("{\"password\": \"hunter2\tsecret\"}", "line 1, column 22: expected the rest of the string"),
            ("{\"a\": 1} x", "line 1, column 10: expected the end of the text after the JSON value, found `x`"),
            // Trailing commas, which Foundation's parser takes on Linux.
            ("{\"a\": 1,}", "line 1, column 9: expected a key in double quotes, found `}`"),
            ("[1, 2,]", "line 1, column 7: expected a value, found `]`"),
        ]
    )
    func invalidJSONLocation(text: String, location: String) async throws {
        try await ScratchHome.with { scratch in
            let file = scratch.directory.appendingPathComponent("body.json")
            try Data(text.utf8).write(to: file)
            let method = ["xrpc", "com.example.thing.do", "--input"]
            let runs = [
                try await scratch.atoauth(method + [text]),
                try await scratch.atoauth(method + ["@\(file.path)"]),
            ]
            for result in runs {
                #expect(result.status == 2, "\(result.stderr)")
                #expect(
                    result.stderr.hasPrefix("--input is not valid JSON, but would be sent as application/json: "),
                    "\(result.stderr)"
                )
                #expect(result.stderr.contains(location), "\(result.stderr)")
                #expect(!result.stderr.contains("hunter2"), "no part of a string is shown: \(result.stderr)")
            }
        }
    }

    /// The `blob` object of an uploadBlob answer.
    static func blob(_ result: CLIProcess.Result) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(answer["blob"] as? [String: Any])
    }
}
