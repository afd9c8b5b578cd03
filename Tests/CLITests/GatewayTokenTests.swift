import ATOAuthTesting
import Foundation
import Testing

/// Named gateway tokens lend less than the start-up token: some accounts, some permissions, for some time.
///
/// Every request leaves an audit line without a secret. Driven from curl and Python's standard library here, and
/// from a Swift client in GatewayTests (`NamedTokenTests`).
@Suite("atoauth gateway token: named tokens bound to accounts, permissions and time")
struct GatewayTokenTests {
    /// `token create … --json`, expecting success; the printed object.
    static func create(_ world: CLIWorld, _ arguments: [String]) async throws -> [String: Any] {
        let created = try await world.atoauth(["gateway", "token", "create"] + arguments + ["--json"])
        #expect(created.status == 0, "\(created.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])
    }

    /// Writes `token` to a file of its own (0600) for the Python client, which reads its token from a file.
    static func tokenFile(_ world: CLIWorld, _ token: String) throws -> URL {
        let url = world.directory.appendingPathComponent("named-token-\(UUID().uuidString)")
        try Data((token + "\n").utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url
    }

    /// The audit log's lines, parsed.
    static func auditLines(_ url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// Every string of a stored session long enough to be a secret: its access and refresh tokens among them.
    static func sessionSecrets(_ world: CLIWorld, _ did: String) throws -> [String] {
        try world.storedSession(did).values.compactMap { $0 as? String }.filter {
            $0.count >= 20 && !$0.hasPrefix("did:")
        }
    }

    @Test("an audit log that is a symbolic link is refused at start, saying so, not with the system's loop text")
    func auditLogLink() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let target = world.directory.appendingPathComponent("elsewhere.jsonl")
            try Data().write(to: target)
            let link = world.directory.appendingPathComponent("audit.jsonl")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            let socket = world.directory.appendingPathComponent("gateway.sock")
            let result = try await world.atoauth("gateway", "--audit-log", link.path, "--socket", socket.path)
            #expect(result.status != 0)
            #expect(result.stderr.contains("a symbolic link, which the audit log never follows"), "\(result.stderr)")
            #expect(!result.stderr.contains("Too many levels"))
        }
    }

    @Test("the audit log counts each body's bytes: in memory, chunked and spooled, and streamed as it arrives")
    func bodyBytes() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            let audit = world.directory.appendingPathComponent("audit.jsonl")
            let gateway = try await GatewayProcess(in: world, ["--audit-log", audit.path])
            let sizes = ["in memory": 1000, "chunked, spooled": 2 << 20, "streamed": 3 << 20]
            for (how, size) in sizes.sorted(by: { $0.value < $1.value }) {
                let file = world.directory.appendingPathComponent("blob-\(size)")
                try Data(repeating: UInt8(ascii: "x"), count: size).write(to: file)
                var arguments = ["-H", "Content-Type: application/octet-stream", "--data-binary", "@" + file.path]
                if how.hasPrefix("chunked") { arguments += ["-H", "Transfer-Encoding: chunked"] }
                let upload = CurlAnswer(
                    try await gateway.curl("/xrpc/com.atproto.repo.uploadBlob", arguments, token: try gateway.token())
                )
                #expect(upload.status == 200, "\(how): \(upload.body)")
            }
            let lines = try await Waiting.value("an audit line for each of the three uploads") {
                let lines = try Self.auditLines(audit)
                return lines.count >= 3 ? lines : nil
            }
            #expect(lines.compactMap { $0["bytesIn"] as? Int } == sizes.values.sorted(), "\(lines)")
        }
    }

    @Test("curl: a token for bob only cannot act as alice by header, query repo or body repo; revoked, it is 401")
    func accountsFromCurl() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))
            let created = try await Self.create(world, ["bob-bot", "--account", "bob.test"])
            let token = try #require(created["token"] as? String)
            #expect(created["name"] as? String == "bob-bot")
            #expect(created["accounts"] as? [String] == [bob])
            #expect(created["scope"] is NSNull && created["expires"] is NSNull, "\(created)")
            let again = try await world.atoauth("gateway", "token", "create", "bob-bot")
            #expect(again.status == 2, "a name is unique: \(again.stderr)")
            let badScope = try await world.atoauth("gateway", "token", "create", "x", "--scope", "repo:nope?action=x")
            #expect(badScope.status == 2, "\(badScope.stderr)")
            let badTime = try await world.atoauth("gateway", "token", "create", "y", "--expires", "5 minutes")
            #expect(badTime.status == 2, "\(badTime.stderr)")
            for reserved in ["startup", "none"] {
                let taken = try await world.atoauth("gateway", "token", "create", reserved)
                #expect(taken.status == 2, "the audit log and metrics use “\(reserved)”: \(taken.stderr)")
                #expect(taken.stderr.contains("is reserved"))
            }

            let audit = world.directory.appendingPathComponent("audit.jsonl")
            let gateway = try await GatewayProcess(in: world, ["--audit-log", audit.path])
            let session = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.server.getSession", token: token))
            #expect(session.status == 200 && session.body.contains(bob), "bob is the token's default: \(session.body)")
            let byHeader = CurlAnswer(
                try await gateway.curl(
                    "/xrpc/com.atproto.server.getSession",
                    ["-H", "atoauth-account: alice.test"],
                    token: token
                )
            )
            #expect(byHeader.status == 403 && byHeader.error == "AccountNotAllowed", "\(byHeader.body)")
            let byQuery = CurlAnswer(
                try await gateway.curl(
                    "/xrpc/com.atproto.repo.listRecords?repo=\(alice)&collection=app.bsky.feed.post",
                    token: token
                )
            )
            #expect(byQuery.status == 403 && byQuery.error == "AccountNotAllowed", "\(byQuery.body)")
            let post = #"{"repo":"\#(alice)","collection":"app.bsky.feed.post","record":{"text":"hi"}}"#
            let byBody = CurlAnswer(
                try await gateway.curl(
                    "/xrpc/com.atproto.repo.createRecord",
                    ["-H", "Content-Type: application/json", "--data", post],
                    token: token
                )
            )
            #expect(byBody.status == 403 && byBody.error == "AccountNotAllowed", "\(byBody.body)")
            for method in ["refreshSession", "deleteSession", "createAppPassword"] {
                for presented in [token, try gateway.token()] {
                    let refused = CurlAnswer(
                        try await gateway.curl("/xrpc/com.atproto.server.\(method)", ["-X", "POST"], token: presented)
                    )
                    #expect(refused.status == 403 && refused.error == "MethodNotAllowed", "\(method): \(refused.body)")
                }
            }

            // The last use is written after the answer: the listing shows it once it is there.
            let (listed, entry) = try await Waiting.value("token list to show bob-bot's last use") {
                () async throws -> (CLIProcess.Result, [String: Any])? in
                let listed = try await world.atoauth("gateway", "token", "list", "--json")
                let tokens = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
                let entry = tokens?.first { $0["name"] as? String == "bob-bot" }
                return entry?["lastUsed"] is String ? (listed, entry ?? [:]) : nil
            }
            #expect((entry["accounts"] as? [[String: Any]])?.first?["handle"] as? String == "bob.test")
            #expect(!listed.stdout.contains(token))

            let revoked = try await world.atoauth("gateway", "token", "revoke", "bob-bot")
            #expect(revoked.status == 0, "\(revoked.stderr)")
            let after = CurlAnswer(try await gateway.curl("/xrpc/com.atproto.server.getSession", token: token))
            #expect(after.status == 401 && after.error == "AuthRequired", "\(after.body)")
            #expect(try await world.atoauth("gateway", "token", "revoke", "bob-bot").status == 2)

            // Each line is written once its answer is: the test waits for the last one.
            let lines = try await Waiting.value("an audit line for each of the 11 requests") {
                let lines = try Self.auditLines(audit)
                return lines.count >= 11 ? lines : nil
            }
            #expect(lines.filter { $0["token"] as? String == "bob-bot" }.count >= 7)
            #expect(lines.contains { $0["error"] as? String == "AccountNotAllowed" && $0["status"] as? Int == 403 })
            #expect(lines.contains { $0["token"] as? String == "startup" })
            #expect(lines.contains { $0["token"] == nil && $0["status"] as? Int == 401 })
            #expect(lines.contains { $0["account"] as? String == bob && $0["nsid"] as? String != nil })
            let text = try String(contentsOf: audit, encoding: .utf8)
            for secret in [token, try gateway.token()] + (try Self.sessionSecrets(world, alice))
                + (try Self.sessionSecrets(world, bob))
            {
                #expect(!text.contains(secret), "the audit log holds a secret")
            }
            #expect(!text.contains("app.bsky.feed.post"), "no query value or body")
            let mode = try FileManager.default.attributesOfItem(atPath: audit.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
        }
    }

    @Test("Python: a token for bob only; a token limited to likes can like, and cannot post or upload")
    func scopeFromPython() async throws {
        try await CLIWorld.with { world in
            try await world.signIn("alice.test")
            try await world.signIn("bob.test")
            let alice = try #require(world.did("alice.test"))
            let bob = try #require(world.did("bob.test"))
            let bobOnly = try #require(try await Self.create(world, ["bob", "--account", bob])["token"] as? String)
            let liker = try await Self.create(
                world,
                ["liker", "--account", "alice.test", "--scope", "repo:app.bsky.feed.like?action=create"]
            )
            #expect(liker["scope"] as? String == "repo:app.bsky.feed.like?action=create")
            let likes = try #require(liker["token"] as? String)
            let gateway = try await GatewayProcess(in: world)

            let asAlice: [[String: Any]] = [
                ["nsid": "com.atproto.server.getSession"],
                ["nsid": "com.atproto.server.getSession", "headers": ["atoauth-account": "alice.test"]],
                [
                    "nsid": "com.atproto.repo.listRecords",
                    "params": ["repo": alice, "collection": "app.bsky.feed.post"],
                ],
                ["nsid": "com.atproto.repo.createRecord", "json": Self.record(alice, "app.bsky.feed.post")],
            ]
            let bobAnswers = try await Self.calls(gateway, world, bobOnly, asAlice)
            #expect(bobAnswers.first?["status"] as? Int == 200 && bobAnswers.first?["did"] as? String == bob)
            for answer in bobAnswers.dropFirst() {
                #expect(answer["status"] as? Int == 403 && answer["error"] as? String == "AccountNotAllowed")
            }

            let scoped: [[String: Any]] = [
                ["nsid": "com.atproto.repo.createRecord", "json": Self.record(alice, "app.bsky.feed.like")],
                ["nsid": "com.atproto.repo.createRecord", "json": Self.record(alice, "app.bsky.feed.post")],
                ["nsid": "com.atproto.repo.uploadBlob", "data": "not really a png", "content_type": "image/png"],
                ["nsid": "com.atproto.identity.updateHandle", "json": ["handle": "mallory.test"]],
            ]
            let answers = try await Self.calls(gateway, world, likes, scoped)
            #expect(answers.map { $0["status"] as? Int } == [200, 403, 403, 403], "\(answers)")
            #expect(answers.dropFirst().allSatisfy { $0["error"] as? String == "ScopeMissingError" })
        }
    }

    /// A `createRecord` body for `repo` in `collection`.
    static func record(_ repo: String, _ collection: String) -> [String: Any] {
        let record: [String: Any] =
            collection == "app.bsky.feed.like"
            ? [
                "$type": collection, "createdAt": "2026-11-28T00:00:00Z",
                "subject": ["uri": "at://\(repo)/app.bsky.feed.post/3k", "cid": "bafyreia"],
            ]
            : ["$type": collection, "text": "hello", "createdAt": "2026-11-28T00:00:00Z"]
        return ["repo": repo, "collection": collection, "record": record]
    }

    /// Runs the Python client's `calls` with `token`; each answer's status, error and DID.
    static func calls(
        _ gateway: GatewayProcess,
        _ world: CLIWorld,
        _ token: String,
        _ calls: [[String: Any]]
    ) async throws -> [[String: Any]] {
        let file = try tokenFile(world, token)
        let listed = String(decoding: try JSONSerialization.data(withJSONObject: calls), as: UTF8.self)
        let result = try await GatewayCommandTests.python(["calls", gateway.address, file.path, listed])
        return try #require(result["answers"] as? [[String: Any]])
    }

    @Test("PostgreSQL: an expired and a revoked token get 401 on the next request, on a second gateway too")
    func sharedStore() async throws {
        try await SharedStoreWorld.with { shared in
            try await shared.signIn("alice.test")
            try shared.copyKey(to: 2)
            let short = try await shared.atoauth(on: 0, "gateway", "token", "create", "short", "--expires", "2s")
            #expect(short.status == 0, "\(short.stderr)")
            let kept = try await shared.atoauth(on: 0, "gateway", "token", "create", "kept")
            #expect(kept.status == 0, "\(kept.stderr)")
            let shortToken = short.stdout.trimmingCharacters(in: .newlines)
            let keptToken = kept.stdout.trimmingCharacters(in: .newlines)
            let audit = shared.world.directory.appendingPathComponent("audit-1.jsonl")
            let first = try await GatewayProcess(in: shared.world, environment: shared.machine(0))
            let second = try await GatewayProcess(
                in: shared.world,
                ["--audit-log", audit.path],
                environment: shared.machine(1)
            )
            let getSession = "/xrpc/com.atproto.server.getSession"
            for gateway in [first, second] {
                #expect(CurlAnswer(try await gateway.curl(getSession, token: keptToken)).status == 200)
            }

            let revoked = try await shared.atoauth(on: 1, "gateway", "token", "revoke", "kept")
            #expect(revoked.status == 0, "\(revoked.stderr)")
            for gateway in [first, second] {
                let after = CurlAnswer(try await gateway.curl(getSession, token: keptToken))
                #expect(after.status == 401 && after.error == "AuthRequired", "\(after.body)")
            }
            try await Waiting.until("the 2-second token to expire on the second gateway", timeout: .seconds(30)) {
                CurlAnswer(try await second.curl(getSession, token: shortToken)).error == "TokenExpired"
            }
            let expired = CurlAnswer(try await first.curl(getSession, token: shortToken))
            #expect(expired.status == 401 && expired.error == "TokenExpired", "\(expired.body)")

            let lines = try await Waiting.value("the audit line of the expired token's refusal") {
                let lines = try Self.auditLines(audit)
                return lines.contains { $0["error"] as? String == "TokenExpired" } ? lines : nil
            }
            #expect(lines.contains { $0["token"] as? String == "kept" && $0["status"] as? Int == 200 })
            #expect(lines.contains { $0["token"] == nil && $0["error"] as? String == "AuthRequired" })
            #expect(lines.contains { $0["error"] as? String == "TokenExpired" })
            let text = try String(contentsOf: audit, encoding: .utf8)
            #expect(!text.contains(keptToken) && !text.contains(shortToken))
        }
    }
}
