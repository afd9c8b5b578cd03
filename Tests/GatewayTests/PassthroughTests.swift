import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Foundation
import Gateway
import HTTPTransport
import Sandbox
import Testing

@Suite("What the gateway passes on: atproto-proxy, and app-password accounts as xrpc serves them")
struct PassthroughTests {
    @Test("app.bsky methods get the default atproto-proxy; a caller's goes on as given, and a malformed one is 400")
    func proxy() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            _ = try await world.signIn(with: accounts)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let profile = try await gateway.send("/xrpc/app.bsky.actor.getProfile?actor=alice.test")
                #expect(profile.status == 200, "\(String(decoding: profile.body, as: UTF8.self))")
                let sent = try #require(recording.requests.last { $0.url.path.hasSuffix("getProfile") })
                #expect(sent.headers["atproto-proxy"] == "did:web:api.bsky.app#bsky_appview")
                #expect(sent.url.query == "actor=alice.test")

                let proxied = try await gateway.send(
                    "/xrpc/app.bsky.actor.getProfile?actor=alice.test",
                    headers: ["atproto-proxy": "did:web:labeler.example#atproto_labeler"]
                )
                #expect(proxied.status != 0)
                let last = try #require(recording.requests.last { $0.url.path.hasSuffix("getProfile") })
                #expect(last.headers["atproto-proxy"] == "did:web:labeler.example#atproto_labeler")
                #expect(last.headers.values(for: "atproto-proxy").count == 1)

                let before = recording.requests.count
                for bad in ["did:web:labeler.example#bad^id", "did:web:labeler.example", "not a did#x"] {
                    let refused = try await gateway.send(
                        "/xrpc/app.bsky.actor.getProfile?actor=alice.test",
                        headers: ["atproto-proxy": bad]
                    )
                    #expect(refused.status == 400, "\(bad)")
                    #expect(try GatewayClient.errorName(refused) == "InvalidRequest")
                }
                #expect(recording.requests.count == before, "a malformed atproto-proxy is not forwarded")
            }
        }
    }

    @Test("an app-password account is served with its Bearer JWT and no DPoP proof, as xrpc serves it")
    func appPassword() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            let alice = try await world.signInWithAppPassword(with: accounts)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let answer = try await gateway.send("/xrpc/com.atproto.server.getSession")
                #expect(answer.status == 200)
                #expect(try GatewayClient.object(answer)["did"] as? String == alice.did.rawValue)
                let sent = try #require(recording.requests.last { $0.url.path.hasSuffix("getSession") })
                #expect(sent.headers["Authorization"]?.hasPrefix("Bearer ") == true)
                #expect(sent.headers["DPoP"] == nil)
            }
        }
    }
}
