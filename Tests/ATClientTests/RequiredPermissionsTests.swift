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
