import ATClient
import ATOAuthTesting
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Failures
import Foundation
import HTTPTransport
import Testing

@Suite("What ATClient puts on the wire")
struct RequestShapeTests {
    @Test("app.bsky and chat.bsky methods get the default atproto-proxy; com.atproto methods carry none")
    func defaultProxies() async throws {
        try await signedIn { recording, client, _ in

            _ = try await client.getProfile(actor: "alice.test")
            #expect(recording.lastXRPC?.headers["atproto-proxy"] == "did:web:api.bsky.app#bsky_appview")
            _ = try await client.getSession()
            #expect(recording.lastXRPC?.headers["atproto-proxy"] == nil)
            #expect(recording.lastXRPC?.headers["Accept"] == "application/json")
            // transition:generic does not cover chat.bsky: the call is refused before sending, naming the chat proxy.
            let chat = await #expect(throws: MissingPermissionError.self) {
                try await client.query(nsid("chat.bsky.convo.listConvos"))
            }
            #expect(
                chat?.permission?.description
                    == "rpc:chat.bsky.convo.listConvos?aud=did:web:api.bsky.chat%23bsky_chat"
            )
        }
    }

    @Test("an explicit proxy wins over the default, and a client's own proxy table replaces the defaults")
    func explicitProxy() async throws {
        try await signedIn { recording, initial, _ in
            var client = initial

            let profile = nsid("app.bsky.actor.getProfile")
            _ = try await client.query(profile, parameters: [("actor", "alice.test")], proxy: "did:web:other.test#x")
            #expect(recording.lastXRPC?.headers["atproto-proxy"] == "did:web:other.test#x")
            client.proxies = [:]
            _ = try await client.query(profile, parameters: [("actor", "alice.test")])
            #expect(recording.lastXRPC?.headers["atproto-proxy"] == nil)
        }
    }

    @Test("query parameters are form-encoded once, in order, and reach the server intact")
    func queryEncoding() async throws {
        try await signedIn { recording, client, alice in
            let awkward = "a b&c=d+e/é?#%"

            let error = await #expect(throws: XRPCError.self) {
                try await client.getRecord(
                    repo: alice.did.rawValue,
                    collection: "app.bsky.feed.post",
                    rkey: awkward,
                    as: [String: String].self
                )
            }
            #expect(error?.error == "RecordNotFound" || error?.error == "InvalidRequest")
            let url = try #require(recording.lastXRPC?.url)
            let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
            #expect(query.hasPrefix("repo=did%3Aplc%3A") || query.hasPrefix("repo=did:plc:"))
            #expect(query.hasSuffix("&collection=app.bsky.feed.post&rkey=a%20b%26c%3Dd%2Be%2F%C3%A9%3F%23%25"))
        }
    }

    @Test("a JSON procedure says so in Content-Type; raw bytes go with the type given")
    func contentTypes() async throws {
        try await signedIn { recording, client, alice in

            _ = try await client.createRecord(
                repo: alice.did.rawValue,
                collection: "app.bsky.feed.post",
                record: ["text": "hello"]
            )
            let create = try #require(recording.lastXRPC)
            #expect(create.method == .post)
            #expect(create.headers["Content-Type"] == "application/json")
            let sent = try JSONSerialization.jsonObject(with: create.body ?? Data()) as? [String: Any]
            #expect(sent?["repo"] as? String == alice.did.rawValue)

            let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 1])
            _ = try await client.uploadBlob(bytes, mimeType: "image/jpeg")
            let upload = try #require(recording.lastXRPC)
            #expect(upload.headers["Content-Type"] == "image/jpeg")
            #expect(upload.body == bytes)
        }
    }

    @Test("extra headers go out in order, Accept replaces the default, and reserved ones are refused unsent")
    func extraHeaders() async throws {
        try await signedIn { recording, client, _ in
            let session = nsid("com.atproto.server.getSession")
            _ = try await client.query(
                session,
                headers: ["atproto-accept-labelers": "did:plc:labeler", "Accept": "application/cbor", "X-A": "1"]
            )
            let sent = try #require(recording.lastXRPC)
            #expect(sent.headers.values(for: "Accept") == ["application/cbor"])
            #expect(sent.headers["atproto-accept-labelers"] == "did:plc:labeler")
            #expect(sent.headers["X-A"] == "1")
            let before = recording.count
            for name in ["Authorization", "dpop", "Content-Type", "atproto-proxy", "Host", "content-length"] {
                let error = await #expect(throws: XRPCRequestError.self) {
                    try await client.query(session, headers: [name: "x"])
                }
                #expect(error?.category == .usage)
                #expect(error?.description.contains(name) == true)
            }
            #expect(recording.count == before)
        }
    }

    @Test("a bound client asked to act as another account sends nothing")
    func mismatchSendsNothing() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            _ = try await world.signIn("alice.test", with: accounts)
            _ = try await world.signIn("bob.test", with: accounts)
            let client = try await accounts.client(for: "alice.test")
            let before = recording.count
            let error = await #expect(throws: AccountError.self) {
                try await client.query(nsid("com.atproto.server.getSession"), as: "bob.test")
            }
            #expect(error?.description.contains("alice.test") == true)
            #expect(recording.count == before)
        }
    }
}

/// Runs `body` with alice signed in to a new sandbox, her bound client, and the recording under it.
private func signedIn(
    _ body: (RecordingTransport, ATClient, Account) async throws -> Void
) async throws {
    try await SandboxWorld.with { world in
        let recording = RecordingTransport(world.transport)
        let accounts = world.accounts(transport: recording)
        let alice = try await world.signIn(with: accounts)
        try await body(recording, try await accounts.client(for: .did(alice.did)), alice)
    }
}

extension RecordingTransport {
    /// The last request to an XRPC method.
    var lastXRPC: HTTPRequest? { requests.last { $0.url.path.hasPrefix("/xrpc/") } }
}

/// A valid NSID.
func nsid(_ text: String) -> NSID {
    guard let value = try? NSID(validating: text) else { preconditionFailure("\(text) is a valid NSID") }
    return value
}
