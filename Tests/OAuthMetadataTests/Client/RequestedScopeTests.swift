import ATProtoPermissions
import Foundation
import OAuthMetadata
import Testing

@Suite("The scope a client requests")
struct RequestedScopeTests {
    private let redirect = URL(string: "http://127.0.0.1:49152/callback")

    @Test("permission scopes are checked and sent in canonical form, atproto first")
    func canonical() throws {
        let client = try OAuthClient.loopback(
            redirectURI: try #require(redirect),
            scope: "repo?collection=app.bsky.feed.post&action=create "
                + "rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app#bsky_appview blob:image/*"
        )
        #expect(
            client.scope
                == "atproto repo:app.bsky.feed.post?action=create "
                + "rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview blob:image/*"
        )
        #expect(client.clientID.contains("scope=atproto%20repo%3Aapp.bsky.feed.post%3Faction%3Dcreate%20"))
        #expect(client.permissions.contains(.atproto))
    }

    @Test(
        "a malformed token is refused before anything is sent, naming the token",
        arguments: [
            "atproto repo:app.bsky.feed.post?action=publish", "atproto rpc:app.bsky.actor.getProfile",
            "atproto Repo:x.y.z",
        ]
    )
    func malformed(_ scope: String) throws {
        let error = #expect(throws: PermissionError.self) {
            try OAuthClient.loopback(redirectURI: try #require(redirect), scope: scope)
        }
        let bad = try #require(scope.split(separator: " ").last.map(String.init))
        #expect(error?.description.contains("“\(bad)”") == true)
    }

    @Test("a hosted client asks only for permissions its document lists, compared in canonical form")
    func hostedWithinDocument() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: ClientMetadataTests.projectRoot.appendingPathComponent("client-metadata.json"))
            ) as? [String: Any]
        )
        object["scope"] = "atproto repo:app.bsky.feed.post blob:image/*"
        let metadata = try ClientMetadata(json: try JSONSerialization.data(withJSONObject: object))
        let client = try OAuthClient.hosted(
            metadata,
            redirectURI: try #require(redirect),
            scope: "atproto repo?collection=app.bsky.feed.post"
        )
        #expect(client.scope == "atproto repo:app.bsky.feed.post")
        let outside = #expect(throws: MetadataError.self) {
            try OAuthClient.hosted(metadata, redirectURI: try #require(redirect), scope: "atproto blob:*/*")
        }
        #expect(outside?.field == "scope")

        object["scope"] = "atproto repo:not-an-nsid"
        let invalid = #expect(throws: MetadataError.self) {
            try ClientMetadata(json: try JSONSerialization.data(withJSONObject: object))
        }
        #expect(invalid?.field == "scope")
        #expect(invalid?.description.contains("repo:not-an-nsid") == true)
    }

    @Test("a fixed callback port can be registered in the loopback client_id; by default no port is")
    func registeredPort() throws {
        let fixed = try OAuthClient.loopback(redirectURI: try #require(redirect), registeringPort: true)
        #expect(fixed.clientID.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A49152%2Fcallback&"))
        let free = try OAuthClient.loopback(redirectURI: try #require(redirect))
        #expect(free.clientID.contains("redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&"))
        #expect(fixed.redirectURI == free.redirectURI)
    }
}
