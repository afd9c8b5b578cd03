import ATOAuthTesting
import DPoPRequestExecutor
import Foundation
import Synchronization
import Testing

/// `atoauth client`: a confidential client's keys, in the store or a 0600 file, and its metadata documents.
///
/// The documents are written and checked; no command ever prints a private key.
@Suite("atoauth client: keys and client metadata documents", .serialized)
struct ClientCommandTests {
    static let clientID = "https://app.example.com/client-metadata.json"

    /// The one JSON value a command printed on stdout.
    static func json(_ result: CLIProcess.Result) throws -> Any {
        #expect(result.stdout.split(separator: "\n").count == 1, "one line: \(result.stdout)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// A JSON file's object.
    static func object(at url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func write(_ object: [String: Any], to url: URL) throws {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
    }

    @Test(
        "keygen --out writes a 0600 private JWK whose kid is its thumbprint, prints only the public JWKS, and never overwrites"
    )
    func keygenToFile() async throws {
        try await ScratchHome.with { scratch in
            let file = scratch.directory.appendingPathComponent("client-key.jwk")
            let result = try await scratch.atoauth(["client", "keygen", "--out", file.path])
            #expect(result.status == 0, "\(result.stderr)")
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let written = try Data(contentsOf: file)
            let key = try #require(try JSONSerialization.jsonObject(with: written) as? [String: String])
            let secret = try #require(key["d"])
            let x = try #require(key["x"])
            let y = try #require(key["y"])
            #expect(key["kty"] == "EC" && key["crv"] == "P-256" && key["alg"] == "ES256")
            #expect(key["kid"] == ECPublicJWK(x: x, y: y).thumbprint)

            let printed = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [[String: String]]]
            )
            let published = try #require(printed["keys"]?.first)
            #expect(printed["keys"]?.count == 1)
            #expect(published["kid"] == key["kid"] && published["x"] == x && published["y"] == y)
            #expect(published["d"] == nil)
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
            #expect(result.stderr.contains("0600") && result.stderr.contains("jwks"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.home.path), "no store is opened")

            let again = try await scratch.atoauth(["client", "keygen", "--out", file.path])
            #expect(again.status == 2)
            #expect(again.stderr.contains("already exists"), "\(again.stderr)")
            #expect(again.stdout.isEmpty)
            #expect(try Data(contentsOf: file) == written, "the existing key file is unchanged")

            let other = scratch.directory.appendingPathComponent("other.jwk")
            let json = try await scratch.atoauth(["client", "keygen", "--out", other.path, "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let answer = try #require(try Self.json(json) as? [String: Any])
            #expect(answer["file"] as? String == other.path)
            #expect(answer["state"] is NSNull && answer["usableAt"] is NSNull)
            let otherSecret = try #require(try Self.object(at: other)["d"] as? String)
            #expect(!json.stdout.contains(otherSecret) && !json.stderr.contains(otherSecret))
        }
    }

    @Test("keygen into the store: the first key is current, the next one next; keys lists them; remove-key ends one")
    func storeKeys() async throws {
        try await ScratchHome.with { scratch in
            let first = try await scratch.atoauth(["client", "keygen", "--json"])
            #expect(first.status == 0, "\(first.stderr)")
            let firstAnswer = try #require(try Self.json(first) as? [String: Any])
            let firstKID = try #require(firstAnswer["kid"] as? String)
            #expect(firstAnswer["state"] as? String == "current")
            #expect(firstAnswer["file"] is NSNull)
            #expect(!first.stdout.contains("\"d\""))

            let second = try await scratch.atoauth(["client", "keygen", "--publish-wait", "900"])
            #expect(second.status == 0, "\(second.stderr)")
            let jwks = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
            let secondKID = try #require(((jwks["keys"] as? [[String: String]])?.first)?["kid"])
            #expect(second.stderr.contains("next"), "\(second.stderr)")
            #expect(!second.stdout.contains("\"d\""))

            let listed = try await scratch.atoauth(["client", "keys", "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let keys = try #require(try Self.json(listed) as? [[String: Any]])
            #expect(keys.map { $0["kid"] as? String } == [firstKID, secondKID])
            #expect(keys.map { $0["state"] as? String } == ["current", "next"])
            #expect(keys.allSatisfy { $0["sessions"] as? Int == 0 })
            #expect(keys.allSatisfy { ($0["jwk"] as? [String: String])?["d"] == nil })
            let table = try await scratch.atoauth(["client", "keys"])
            #expect(table.stdout.contains(firstKID) && table.stdout.contains("current"), "\(table.stdout)")

            // After `--`: a thumbprint may begin with "-" and hold an option's letter (-h).
            let removed = try await scratch.atoauth(["client", "remove-key", "--", secondKID])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(removed.stdout.contains("Removed the client key \(secondKID)"), "\(removed.stdout)")
            let left = try #require(
                try Self.json(try await scratch.atoauth(["client", "keys", "--json"])) as? [[String: Any]]
            )
            #expect(left.map { $0["kid"] as? String } == [firstKID])

            let unknown = try await scratch.atoauth(["client", "remove-key", "--", secondKID])
            #expect(unknown.status == 2, "\(unknown.stderr)")
        }
    }

    @Test("metadata writes a confidential document holding the store's public keys, which check accepts")
    func metadataFromStore() async throws {
        try await ScratchHome.with { scratch in
            for _ in 0..<2 {
                #expect(try await scratch.atoauth(["client", "keygen"]).status == 0)
            }
            let keys = try #require(
                try Self.json(try await scratch.atoauth(["client", "keys", "--json"])) as? [[String: Any]]
            )
            let kids = keys.compactMap { $0["kid"] as? String }
            #expect(kids.count == 2)

            let file = scratch.directory.appendingPathComponent("client-metadata.json")
            let written = try await scratch.atoauth([
                "client", "metadata", "--client-id", Self.clientID, "--redirect-uri",
                "https://app.example.com/callback",
                "--name", "Example app", "--out", file.path,
            ])
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stdout.isEmpty)
            #expect(written.stderr.contains("atoauth client check \(Self.clientID)"), "\(written.stderr)")
            let document = try Self.object(at: file)
            #expect(document["client_id"] as? String == Self.clientID)
            #expect(document["application_type"] as? String == "web")
            #expect(document["token_endpoint_auth_method"] as? String == "private_key_jwt")
            #expect(document["token_endpoint_auth_signing_alg"] as? String == "ES256")
            #expect(document["dpop_bound_access_tokens"] as? Bool == true)
            #expect(document["response_types"] as? [String] == ["code"])
            #expect(document["redirect_uris"] as? [String] == ["https://app.example.com/callback"])
            let published = try #require((document["jwks"] as? [String: Any])?["keys"] as? [[String: String]])
            #expect(published.compactMap { $0["kid"] } == kids)
            #expect(published.allSatisfy { $0["d"] == nil && $0["kty"] == "EC" && $0["x"] != nil })
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o644)

            let checked = try await scratch.atoauth(["client", "check", file.path])
            #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
            #expect(checked.stdout == "ok: \(Self.clientID) is a valid confidential client document\n")
            let json = try #require(
                try Self.json(try await scratch.atoauth(["client", "check", file.path, "--json"])) as? [String: Any]
            )
            #expect(json["clientID"] as? String == Self.clientID && json["kind"] as? String == "confidential")
            #expect((json["problems"] as? [Any])?.isEmpty == true)

            let printed = try await scratch.atoauth([
                "client", "metadata", "--client-id", Self.clientID, "--copy-address-uri",
                "https://app.example.com/copy-address",
            ])
            #expect(printed.status == 0, "\(printed.stderr)")
            let shown = try #require(
                try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any]
            )
            #expect(shown["redirect_uris"] as? [String] == ["https://app.example.com/copy-address"])
        }
    }

    @Test("metadata refuses to write a document with a problem, listing it; a native document needs no keys")
    func metadataProblems() async throws {
        try await ScratchHome.with { scratch in
            let file = scratch.directory.appendingPathComponent("client-metadata.json")
            let refused = try await scratch.atoauth([
                "client", "metadata", "--client-id", Self.clientID, "--redirect-uri", "https://evil.example/callback",
                "--jwks-uri", "https://app.example.com/jwks.json", "--out", file.path,
            ])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("redirect_uris: "), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: file.path), "nothing is written")

            let native = try await scratch.atoauth(["client", "metadata", "--native", "--client-id", Self.clientID])
            #expect(native.status == 0, "\(native.stderr)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(native.stdout.utf8)) as? [String: Any]
            )
            #expect(document["application_type"] as? String == "native")
            #expect(document["token_endpoint_auth_method"] as? String == "none")
            #expect(document["jwks"] == nil && document["jwks_uri"] == nil)
            #expect(!FileManager.default.fileExists(atPath: scratch.home.path), "no store is opened")

            let missing = try await scratch.atoauth([
                "client", "metadata", "--redirect-uri", "https://app.example.com/cb",
            ])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("--client-id"), "\(missing.stderr)")

            // A malformed permission is a usage error, as for accounts add and the doctor.
            let badScope = try await scratch.atoauth([
                "client", "metadata", "--native", "--client-id", Self.clientID, "--scope",
                "atproto repo:x?action=publish",
            ])
            #expect(badScope.status == 2, "\(badScope.stderr)")
            #expect(badScope.stderr.contains("repo:x?action=publish"), "\(badScope.stderr)")
        }
    }

    @Test("check lists each problem of a broken document, exit 1, and never prints a published private key")
    func brokenDocuments() async throws {
        try await ScratchHome.with { scratch in
            let keyFile = scratch.directory.appendingPathComponent("key.jwk")
            #expect(try await scratch.atoauth(["client", "keygen", "--out", keyFile.path]).status == 0)
            let privateKey = try Self.object(at: keyFile)
            let secret = try #require(privateKey["d"] as? String)
            var publicKey = privateKey
            publicKey["d"] = nil
            let base: [String: Any] = [
                "client_id": Self.clientID, "application_type": "web",
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"], "scope": "atproto", "redirect_uris": ["https://app.example.com/callback"],
                "token_endpoint_auth_method": "private_key_jwt", "token_endpoint_auth_signing_alg": "ES256",
                "jwks": ["keys": [publicKey]], "dpop_bound_access_tokens": true,
            ]
            let valid = scratch.directory.appendingPathComponent("valid.json")
            try Self.write(base, to: valid)
            #expect(try await scratch.atoauth(["client", "check", valid.path]).status == 0)

            var nativeConfidential = base
            nativeConfidential["application_type"] = "native"
            let native = scratch.directory.appendingPathComponent("native.json")
            try Self.write(nativeConfidential, to: native)
            let nativeResult = try await scratch.atoauth(["client", "check", native.path])
            #expect(nativeResult.status == 1)
            let line = nativeResult.stdout.split(separator: "\n").first { $0.hasPrefix("token_endpoint_auth_method: ") }
            #expect(line?.hasSuffix("]") == true, "\(nativeResult.stdout)")

            var leaked = base
            leaked["jwks"] = ["keys": [privateKey]]
            leaked["dpop_bound_access_tokens"] = false
            let leak = scratch.directory.appendingPathComponent("leak.json")
            try Self.write(leaked, to: leak)
            let leakResult = try await scratch.atoauth(["client", "check", leak.path])
            #expect(leakResult.status == 1)
            #expect(leakResult.stdout.contains("jwks: key 1"), "\(leakResult.stdout)")
            #expect(leakResult.stdout.contains("private key material (d)"), "\(leakResult.stdout)")
            #expect(leakResult.stdout.contains("dpop_bound_access_tokens: "), "several problems: \(leakResult.stdout)")
            let json = try await scratch.atoauth(["client", "check", leak.path, "--json"])
            #expect(json.status == 1)
            let answer = try #require(try Self.json(json) as? [String: Any])
            let problems = try #require(answer["problems"] as? [[String: String]])
            #expect(problems.count >= 2 && problems.allSatisfy { $0["field"] != nil && $0["rule"] != nil })
            #expect(json.stderr.isEmpty, "with --json, stderr holds only JSON errors: \(json.stderr)")
            for result in [leakResult, json] {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
            }

            let fromKeyFile = try await scratch.atoauth([
                "client", "metadata", "--client-id", Self.clientID, "--redirect-uri",
                "https://app.example.com/callback",
                "--jwks", keyFile.path,
            ])
            #expect(fromKeyFile.status == 2, "a private key file is not a key set to publish")
            #expect(!fromKeyFile.stdout.contains(secret) && !fromKeyFile.stderr.contains(secret))

            let unreadable = try await scratch.atoauth(["client", "check", "no-such-file.json"])
            #expect(unreadable.status == 2)
            let plainHTTP = try await scratch.atoauth([
                "client", "check", "http://app.example.com/client-metadata.json",
            ])
            #expect(plainHTTP.status == 2, "\(plainHTTP.stderr)")
            let plainHTTPInDevelopment = try await scratch.atoauth([
                "client", "check", "--allow-http-loopback", "http://app.example.com/client-metadata.json",
            ])
            #expect(plainHTTPInDevelopment.status == 2, "only a loopback host: \(plainHTTPInDevelopment.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.home.path), "check opens no store")
        }
    }

    @Test("check fetches a document from its URL as a server does, comparing client_id with it")
    func checkURL() async throws {
        let served = Mutex(Data())
        let handler: LoopbackHTTPServer.Handler = { _ in
            ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: served.withLock { $0 })
        }
        try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let url = server.url("/client-metadata.json").absoluteString
            var document: [String: Any] = [
                "client_id": url, "application_type": "native", "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"], "scope": "atproto transition:generic",
                "redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none",
                "dpop_bound_access_tokens": true,
            ]
            served.withLock { $0 = (try? JSONSerialization.data(withJSONObject: document)) ?? Data() }
            try await ScratchHome.with { scratch in
                let result = try await scratch.atoauth(["client", "check", url, "--allow-http-loopback"])
                #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
                #expect(result.stdout == "ok: \(url) is a valid public client document\n")

                document["client_id"] = "https://app.example.com/client-metadata.json"
                served.withLock { $0 = (try? JSONSerialization.data(withJSONObject: document)) ?? Data() }
                let moved = try await scratch.atoauth(["client", "check", url, "--allow-http-loopback"])
                #expect(moved.status == 1)
                #expect(moved.stdout.contains("client_id: "), "\(moved.stdout)")
            }
        }
    }
}
