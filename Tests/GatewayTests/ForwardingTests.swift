import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Foundation
import Gateway
import HTTPTransport
import OAuthSessionManager
import Sandbox
import Testing

@Suite("XRPC calls forwarded as a signed-in account")
struct ForwardingTests {
    @Test("a query goes out as the active account and its answer comes back as the PDS gave it")
    func read() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn(with: accounts)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let answer = try await gateway.send("/xrpc/com.atproto.server.getSession")
                #expect(answer.status == 200)
                #expect(answer.headers["Content-Type"]?.hasPrefix("application/json") == true)
                #expect(try GatewayClient.object(answer)["did"] as? String == alice.did.rawValue)
                #expect(answer.headers["DPoP-Nonce"] == nil)
            }
        }
    }

    @Test("a record created through the gateway is listed through it")
    func createThenList() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn(with: accounts)
            let did = alice.did.rawValue
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let record =
                    #"{"repo":"\#(did)","collection":"app.bsky.feed.post","record":{"text":"via the gateway"}}"#
                let created = try await gateway.send(
                    "/xrpc/com.atproto.repo.createRecord",
                    method: .post,
                    headers: ["Content-Type": "application/json"],
                    body: Data(record.utf8)
                )
                #expect(created.status == 200, "\(String(decoding: created.body, as: UTF8.self))")
                let uri = try #require(try GatewayClient.object(created)["uri"] as? String)
                let listed = try await gateway.send(
                    "/xrpc/com.atproto.repo.listRecords?repo=\(did)&collection=app.bsky.feed.post"
                )
                #expect(listed.status == 200)
                let records = try #require(try GatewayClient.object(listed)["records"] as? [[String: Any]])
                #expect(records.contains { $0["uri"] as? String == uri })
            }
        }
    }

    @Test("a blob over the memory limit is spooled, uploaded, and streamed back whole; no spool file stays")
    func largeBlob() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn(with: accounts)
            let blob = Data.patterned(3 << 20, step: 31)
            var spool: URL?
            try await RunningGateway.with(
                accounts,
                transport: world.transport,
                configure: { spool = $0.spoolDirectory }
            ) {
                gateway in
                let (uploaded, reference) = try await gateway.uploadBlob(blob)
                #expect(uploaded.status == 200, "\(String(decoding: uploaded.body, as: UTF8.self))")
                #expect((try GatewayClient.object(uploaded)["blob"] as? [String: Any])?["size"] as? Int == blob.count)
                let cid = try #require(reference)
                let downloaded = try await gateway.stream(
                    "/xrpc/com.atproto.sync.getBlob?did=\(alice.did.rawValue)&cid=\(cid)"
                )
                #expect(downloaded.status == 200)
                #expect(downloaded.headers["Content-Length"] == String(blob.count))
                #expect(try await downloaded.body.collect(upTo: 8 << 20) == blob)
                let directory = try #require(spool)
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
            }
        }
    }

    @Test("a large upload sent on as it arrives goes again whole after a nonce challenge and after a refresh")
    func largeUploadRetried() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            // An access token the PDS does not know (a refresh, then the upload again) and no nonce kept (a
            // challenge, then the upload again): the body is read again from its start each time.
            let session = try await world.signInWithRefusedAccessToken(activeIn: accounts)
            let blob = Data.patterned(3 << 20, step: 7, start: 3)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                accounts.nonceCache.removeAll()
                let challenges = world.server.counters.nonceChallengesSent
                let (uploaded, reference) = try await gateway.uploadBlob(blob)
                #expect(uploaded.status == 200, "\(String(decoding: uploaded.body, as: UTF8.self))")
                #expect(world.server.counters.refreshGrantsSucceeded == 1)
                #expect(world.server.counters.nonceChallengesSent > challenges)
                #expect(world.server.counters.blobsStored == 1)
                let cid = try #require(reference)
                let downloaded = try await gateway.stream(
                    "/xrpc/com.atproto.sync.getBlob?did=\(session.did.rawValue)&cid=\(cid)"
                )
                #expect(try await downloaded.body.collect(upTo: 8 << 20) == blob)
            }
        }
    }

    @Test("atoauth-account naming an account not signed in is 403 AccountNotSignedIn, never served as another")
    func unknownAccount() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            _ = try await world.signIn(with: accounts)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let refused = try await gateway.send(
                    "/xrpc/com.atproto.server.getSession",
                    headers: ["atoauth-account": "bob.test"]
                )
                #expect(refused.status == 403)
                #expect(try GatewayClient.errorName(refused) == "AccountNotSignedIn")
                let malformed = try await gateway.send(
                    "/xrpc/com.atproto.server.getSession",
                    headers: ["atoauth-account": "not a handle"]
                )
                #expect(malformed.status == 400)
            }
        }
    }

    @Test("with no account signed in, a call is 403 AccountNotSignedIn")
    func nobodySignedIn() async throws {
        try await SandboxWorld.with { world in
            try await RunningGateway.with(world.accounts(), transport: world.transport) { gateway in
                let refused = try await gateway.send("/xrpc/com.atproto.server.getSession")
                #expect(refused.status == 403)
                #expect(try GatewayClient.errorName(refused) == "AccountNotSignedIn")
            }
        }
    }

    @Test("a write the session's permissions do not allow is 403 ScopeMissingError, as the PDS would answer")
    func missingPermission() async throws {
        try await SandboxWorld.with { world in
            let (accounts, session) = try await narrowedSession(
                world,
                scope: "atproto repo:app.bsky.feed.like?action=create"
            )
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let did = session.did.rawValue
                let record = #"{"repo":"\#(did)","collection":"app.bsky.feed.post","record":{"text":"hi"}}"#
                let refused = try await gateway.send(
                    "/xrpc/com.atproto.repo.createRecord",
                    method: .post,
                    headers: ["Content-Type": "application/json"],
                    body: Data(record.utf8)
                )
                #expect(refused.status == 403)
                let object = try GatewayClient.object(refused)
                #expect(object["error"] as? String == "ScopeMissingError")
                #expect(
                    object["message"] as? String == #"Missing required scope "repo:app.bsky.feed.post?action=create""#
                )
            }
        }
    }

    @Test("credentials and cookies stay here; DPoP-Nonce, Set-Cookie and the PDS's challenge do not come back")
    func headersEachWay() async throws {
        let answer = ScriptedResponse(
            status: 200,
            headers: [
                ("Content-Type", "application/json"), ("DPoP-Nonce", "nonce-for-the-gateway"),
                ("Set-Cookie", "session=secret; HttpOnly"), ("WWW-Authenticate", #"DPoP algs="ES256""#),
                ("atproto-repo-rev", "3l2abc"), ("ratelimit-remaining", "99"), ("X-Powered-By", "pds"),
            ],
            body: Data(#"{"did":"did:plc:x","handle":"alice.test"}"#.utf8)
        )
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(answer)) { pds in
            try await SandboxWorld.with { world in
                let (accounts, session) = try await narrowedSession(
                    world,
                    scope: "atproto transition:generic",
                    pds: pds.url("/")
                )
                try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                    let passed = try await gateway.send(
                        "/xrpc/com.atproto.server.getSession",
                        headers: [
                            "Cookie": "gateway=secret", "DPoP": "forged", "atoauth-account": session.did.rawValue,
                            "atproto-accept-labelers": "did:plc:labeler",
                        ]
                    )
                    #expect(passed.status == 200)
                    #expect(passed.headers["DPoP-Nonce"] == nil)
                    #expect(passed.headers["Set-Cookie"] == nil)
                    #expect(passed.headers["WWW-Authenticate"] == nil)
                    #expect(passed.headers["X-Powered-By"] == nil)
                    #expect(passed.headers["atproto-repo-rev"] == "3l2abc")
                    #expect(passed.headers["ratelimit-remaining"] == "99")
                    let sent = try #require(pds.requests.last)
                    #expect(sent.header("Cookie") == nil)
                    #expect(sent.header("atoauth-account") == nil)
                    #expect(sent.header("DPoP") != "forged")
                    #expect(sent.header("Authorization")?.hasPrefix("DPoP ") == true)
                    #expect(sent.header("Authorization")?.contains(gateway.token) == false)
                    #expect(sent.header("atproto-accept-labelers") == "did:plc:labeler")
                }
            }
        }
    }
}
