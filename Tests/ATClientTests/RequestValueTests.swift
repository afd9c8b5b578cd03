import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import Failures
import Foundation
import HTTPTransport
import Sandbox
import Testing

@Suite("XRPC calls as request values, each with its own time limit")
struct RequestValueTests {
    @Test("a request value goes on the wire as the query and procedure shorthands send it")
    func sameAsShorthands() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            _ = try await world.signIn(with: accounts)
            let client = accounts.client()
            let profile = nsid("app.bsky.actor.getProfile")
            _ = try await client.query(profile, parameters: [("actor", "alice.test")], as: "alice.test")
            let shorthand = try #require(recording.lastXRPC)
            var request = XRPCRequest(nsid: profile, parameters: [("actor", "alice.test")])
            request.account = "alice.test"
            _ = try await client.execute(request)
            let value = try #require(recording.lastXRPC)
            #expect(value.method == shorthand.method && value.url == shorthand.url)
            #expect(value.headers["atproto-proxy"] == shorthand.headers["atproto-proxy"])
            #expect(value.headers["Accept"] == "application/json")
            // A procedure routed by the `repo` of its JSON body, its body typed.
            let body = Data(#"{"repo":"alice.test","collection":"app.bsky.feed.post","record":{"text":"hi"}}"#.utf8)
            var create = XRPCRequest(nsid: nsid("com.atproto.repo.createRecord"), method: .post, body: body)
            create.contentType = "application/json"
            _ = try await client.execute(create)
            let sent = try #require(recording.lastXRPC)
            #expect(sent.method == .post && sent.headers["Content-Type"] == "application/json" && sent.body == body)
        }
    }

    @Test("a call with a short time limit against a slow PDS fails with a timeout naming the limit, sent at most once")
    func shortLimitSlowServer() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            _ = try await world.signIn(with: accounts)
            let client = try await accounts.client(for: "alice.test")
            _ = try await client.getSession()
            world.server.resetCounters()
            // Far longer than the call's limit, far shorter than the transport's own 30 s: only the call's limit ends it.
            world.server.updateConfiguration { $0.faults.slowResponses = 10 }
            let request = XRPCRequest(nsid: nsid("com.atproto.server.getSession"))
            let error = await #expect(throws: CallTimeoutError.self) {
                try await client.execute(request, timeout: .milliseconds(300))
            }
            #expect(error?.limit == .milliseconds(300))
            #expect(error?.description.contains("300 ms") == true)
            #expect(error?.description.contains("com.atproto.server.getSession") == true)
            #expect(error?.category == .failed && error?.remedy == .allowMoreTime)
            let counters = world.server.counters
            #expect(counters.xrpcRequestHeadsReceived <= 1, "no retry after the limit")
            #expect(counters.refreshGrantsSucceeded == 0)
            // The connection is still good once the server is quick again.
            world.server.updateConfiguration { $0.faults.slowResponses = nil }
            _ = try await client.execute(request, timeout: .seconds(60))
        }
    }
}
