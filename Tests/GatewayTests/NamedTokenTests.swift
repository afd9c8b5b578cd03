import ATOAuthTesting
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Foundation
import Gateway
import HTTPTransport
import Keystore
import OAuthSessionManager
import Testing

/// A Swift client of an in-process gateway with named tokens from the account store.
@Suite("Named gateway tokens, from a Swift client")
struct NamedTokenTests {
    /// A `createRecord` body in `collection` of `repo`.
    static func record(_ repo: DID, _ collection: String) -> Data {
        let subject = #""subject":{"uri":"at://\#(repo)/app.bsky.feed.post/3k","cid":"bafyreia"}"#
        return Data(
            #"{"repo":"\#(repo)","collection":"\#(collection)","record":{"text":"hi",\#(subject)}}"#.utf8
        )
    }

    @Test("a like-only token likes, cannot post or upload; for bob only, not alice; expired and revoked are 401")
    func limits() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let bob = try await world.signIn("bob.test", with: accounts)
            let tokens = accounts.gatewayTokens()
            let liker = GatewayToken.generate()
            _ = try await tokens.create(
                name: "liker",
                token: liker,
                accounts: [alice.did],
                scope: try ScopeSet(requested: "repo:app.bsky.feed.like?action=create"),
                lifetime: nil,
                now: Date()
            )
            let bobOnly = GatewayToken.generate()
            _ = try await tokens.create(
                name: "bob",
                token: bobOnly,
                accounts: [bob.did],
                scope: nil,
                lifetime: nil,
                now: Date()
            )
            let stale = GatewayToken.generate()
            _ = try await tokens.create(
                name: "stale",
                token: stale,
                accounts: [],
                scope: nil,
                lifetime: .seconds(1),
                now: Date().addingTimeInterval(-60)
            )
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let likes = GatewayClient(port: gateway.port, token: liker, transport: world.transport)
                let json: HTTPHeaders = ["Content-Type": "application/json"]
                let create = "/xrpc/com.atproto.repo.createRecord"
                let liked = try await likes.send(
                    create,
                    method: .post,
                    headers: json,
                    body: Self.record(alice.did, "app.bsky.feed.like")
                )
                #expect(liked.status == 200, "\(String(decoding: liked.body, as: UTF8.self))")
                let posted = try await likes.send(
                    create,
                    method: .post,
                    headers: json,
                    body: Self.record(alice.did, "app.bsky.feed.post")
                )
                #expect(posted.status == 403)
                #expect(try GatewayClient.errorName(posted) == "ScopeMissingError")
                #expect(String(decoding: posted.body, as: UTF8.self).contains("repo:app.bsky.feed.post"))
                let uploaded = try await likes.uploadBlob(Data("png".utf8))
                #expect(uploaded.answer.status == 403)

                let asBob = GatewayClient(port: gateway.port, token: bobOnly, transport: world.transport)
                let own = try await asBob.send("/xrpc/com.atproto.server.getSession")
                #expect(own.status == 200)
                #expect(try GatewayClient.object(own)["did"] as? String == bob.did.rawValue)
                let other = try await asBob.send(
                    "/xrpc/com.atproto.server.getSession",
                    headers: ["atoauth-account": "alice.test"]
                )
                #expect(other.status == 403)
                #expect(try GatewayClient.errorName(other) == "AccountNotAllowed")
                #expect(!String(decoding: other.body, as: UTF8.self).contains(alice.did.rawValue))
                // An account not signed in here is answered the same: the token learns nothing of the others.
                let absent = try await asBob.send(
                    "/xrpc/com.atproto.server.getSession",
                    headers: ["atoauth-account": "carol.test"]
                )
                #expect(absent.status == 403)
                #expect(absent.body == other.body)
                let expired = try await GatewayClient(port: gateway.port, token: stale, transport: world.transport)
                    .send("/xrpc/com.atproto.server.getSession")
                #expect(expired.status == 401)
                #expect(try GatewayClient.errorName(expired) == "TokenExpired")
                try await tokens.revoke("bob")
                let revoked = try await asBob.send("/xrpc/com.atproto.server.getSession")
                #expect(revoked.status == 401)
                #expect(try GatewayClient.errorName(revoked) == "AuthRequired")
                // The last use is written after the answer, in a task of its own.
                let listed = try await Waiting.value("the liker token's last use to be stored") {
                    let listed = try await tokens.list()
                    return listed.first?.lastUsed != nil ? listed : nil
                }
                #expect(listed.map(\.record.name) == ["liker", "stale"])
            }
        }
    }

    @Test("a token limited to one account learns nothing of another's state: a damaged session is AccountNotAllowed")
    func otherAccountDamaged() async throws {
        try await SandboxWorld.with { world in
            let signing = world.accounts()
            let alice = try await world.signIn("alice.test", with: signing)
            let bob = try await world.signIn("bob.test", with: signing)
            let token = GatewayToken.generate()
            _ = try await signing.gatewayTokens().create(
                name: "bob",
                token: token,
                accounts: [bob.did],
                scope: nil,
                lifetime: nil,
                now: Date()
            )
            try world.keystore.save(Data("damaged".utf8), as: Session.entryName(did: alice.did))
            // A gateway of its own, which has not met alice's session yet.
            try await RunningGateway.with(world.accounts(), transport: world.transport) { gateway in
                let asBob = GatewayClient(port: gateway.port, token: token, transport: world.transport)
                for named in ["alice.test", alice.did.rawValue, "carol.test"] {
                    let refused = try await asBob.send(
                        "/xrpc/com.atproto.server.getSession",
                        headers: ["atoauth-account": named]
                    )
                    let body = String(decoding: refused.body, as: UTF8.self)
                    #expect(refused.status == 403, "\(named): \(body)")
                    #expect(try GatewayClient.errorName(refused) == "AccountNotAllowed", "\(named): \(body)")
                    #expect(!body.contains(alice.did.rawValue), "\(named): \(body)")
                }
                #expect(try await asBob.send("/xrpc/com.atproto.server.getSession").status == 200)
            }
        }
    }

    @Test("a read-only token cannot get a service auth token for another method or service, only for its own")
    func serviceAuth() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            _ = try await world.signIn(with: accounts)
            let reader = GatewayToken.generate()
            _ = try await accounts.gatewayTokens().create(
                name: "reader",
                token: reader,
                accounts: [],
                scope: try ScopeSet(requested: "rpc:app.bsky.feed.getTimeline?aud=*"),
                lifetime: nil,
                now: Date()
            )
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let client = GatewayClient(port: gateway.port, token: reader, transport: world.transport)
                let path = "/xrpc/com.atproto.server.getServiceAuth"
                for query in ["aud=did:web:api.bsky.chat&lxm=chat.bsky.convo.sendMessage", "aud=did:web:api.bsky.chat"]
                {
                    let refused = try await client.send(path + "?" + query)
                    #expect(refused.status == 403, "\(query)")
                    #expect(try GatewayClient.errorName(refused) == "ScopeMissingError")
                }
                #expect(!recording.requests.contains { $0.url.path.hasSuffix("getServiceAuth") })

                _ = try await client.send(
                    path + "?aud=did:web:api.bsky.app%23bsky_appview&lxm=app.bsky.feed.getTimeline"
                )
                #expect(recording.requests.contains { $0.url.path.hasSuffix("getServiceAuth") })
            }
        }
    }

    @Test("--allow-account limits the start-up token: another account is 403 AccountNotAllowed")
    func allowedAccounts() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let bob = try await world.signIn("bob.test", with: accounts)
            try await RunningGateway.with(
                accounts,
                transport: world.transport,
                configure: { $0.allowedAccounts = [bob.did] }
            ) { gateway in
                let own = try await gateway.send("/xrpc/com.atproto.server.getSession")
                #expect(own.status == 200)
                #expect(try GatewayClient.object(own)["did"] as? String == bob.did.rawValue)
                let other = try await gateway.send(
                    "/xrpc/com.atproto.server.getSession",
                    headers: ["atoauth-account": alice.did.rawValue]
                )
                #expect(other.status == 403)
                #expect(try GatewayClient.errorName(other) == "AccountNotAllowed")
                #expect(!String(decoding: other.body, as: UTF8.self).contains(alice.did.rawValue))
                // An account not signed in here is answered the same: the token learns nothing of the others.
                let absent = try await gateway.send(
                    "/xrpc/com.atproto.server.getSession",
                    headers: ["atoauth-account": "carol.test"]
                )
                #expect(absent.status == 403)
                #expect(absent.body == other.body)
                let refresh = try await gateway.send("/xrpc/com.atproto.server.refreshSession", method: .post)
                #expect(refresh.status == 403)
                #expect(try GatewayClient.errorName(refresh) == "MethodNotAllowed")
            }
        }
    }
}
