import ATProtoPermissions
import Foundation
import Testing

@testable import ATClient

@Suite("What each call needs")
struct RequiredPermissionsTests {
    private let json = "application/json"

    private func needed(_ method: String, proxy: String? = nil, body: String? = nil, type: String? = nil) -> [String] {
        RequiredPermissions.of(nsid(method), proxy: proxy, body: body.map { Data($0.utf8) }, contentType: type)
            .map(\.description)
    }

    @Test("record writes need repo permissions with their actions")
    func writes() {
        let body = #"{"repo":"did:plc:x","collection":"app.bsky.feed.post","record":{}}"#
        #expect(
            needed("com.atproto.repo.createRecord", body: body, type: json) == ["repo:app.bsky.feed.post?action=create"]
        )
        #expect(
            needed("com.atproto.repo.putRecord", body: body, type: json)
                == ["repo:app.bsky.feed.post?action=create", "repo:app.bsky.feed.post?action=update"]
        )
        #expect(
            needed("com.atproto.repo.deleteRecord", body: body, type: json) == ["repo:app.bsky.feed.post?action=delete"]
        )
        #expect(
            needed("com.atproto.repo.createRecord", body: body, type: "APPLICATION/JSON; charset=utf-8")
                == ["repo:app.bsky.feed.post?action=create"]
        )
        let batch = #"""
            {"repo":"did:plc:x","writes":[
              {"$type":"com.atproto.repo.applyWrites#create","collection":"app.bsky.feed.like","value":{}},
              {"$type":"com.atproto.repo.applyWrites#delete","collection":"app.bsky.feed.post","rkey":"a"}]}
            """#
        #expect(
            needed("com.atproto.repo.applyWrites", body: batch, type: json)
                == ["repo:app.bsky.feed.like?action=create", "repo:app.bsky.feed.post?action=delete"]
        )
    }

    @Test("a blob upload needs blob:<its media type>, parameters dropped")
    func blobs() {
        #expect(needed("com.atproto.repo.uploadBlob", type: "image/png") == ["blob:image/png"])
        #expect(needed("com.atproto.repo.uploadBlob", type: "text/plain; charset=utf-8") == ["blob:text/plain"])
        #expect(needed("com.atproto.repo.uploadBlob").isEmpty)
    }

    @Test("a proxied call needs rpc:<method> for the proxy's audience")
    func proxied() {
        #expect(
            needed("app.bsky.actor.getProfile", proxy: "did:web:api.bsky.app#bsky_appview")
                == ["rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview"]
        )
        #expect(needed("app.bsky.actor.getProfile", proxy: "not a service reference").isEmpty)
        #expect(needed("com.atproto.server.getSession").isEmpty)
    }

    @Test("a service auth token needs the rpc permission of its lxm and aud, as the PDS checks it")
    func serviceAuth() {
        func needed(_ parameters: [(String, String)]) -> [String] {
            let nsid = nsid("com.atproto.server.getServiceAuth")
            return RequiredPermissions.of(nsid, parameters: parameters, proxy: nil, body: nil, contentType: nil)
                .map(\.description)
        }
        let chat = ("aud", "did:web:api.bsky.chat#bsky_chat")
        let send = ("lxm", "chat.bsky.convo.sendMessage")
        #expect(needed([chat, send]) == ["rpc:chat.bsky.convo.sendMessage?aud=did:web:api.bsky.chat%23bsky_chat"])
        #expect(needed([chat]) == ["rpc:*?aud=did:web:api.bsky.chat%23bsky_chat"])
        // A bare DID is covered only by `aud=*`; any method at any service only by both transitional scopes.
        #expect(needed([("aud", "did:web:api.bsky.chat"), send]) == ["rpc:chat.bsky.convo.sendMessage?aud=*"])
        #expect(needed([("aud", "did:web:api.bsky.chat")]) == ["transition:generic", "transition:chat.bsky"])
        #expect(needed([("lxm", "not an nsid"), ("aud", "x")]) == ["transition:generic", "transition:chat.bsky"])
    }

    @Test(
        "what cannot be read is left to the server",
        arguments: [
            (#"{"collection":"app.bsky.feed.post"}"#, "text/plain"),
            (#"{"collection":"not an nsid"}"#, "application/json"),
            (#"{"collection":42}"#, "application/json"),
            ("not json", "application/json"),
        ]
    )
    func unreadable(_ body: String, _ type: String) {
        #expect(needed("com.atproto.repo.createRecord", body: body, type: type).isEmpty)
    }
}
