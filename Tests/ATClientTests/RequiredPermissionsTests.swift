import ATProtoPermissions
import ATProtoSyntax
import Foundation
import Testing

@testable import ATClient

@Suite("What each call needs")
struct RequiredPermissionsTests {
    private let json = "application/json"

    private func needed(_ method: String, proxy: String? = nil, body: String? = nil, type: String? = nil) -> [String] {
        RequiredPermissions.of(nsid(method), proxy: proxy, body: body.map { Data($0.utf8) }, contentType: type)
            .permissions.map(\.description)
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

    @Test("the PDS's own account and identity methods need their permission, whatever atproto-proxy names")
    func pdsMethods() {
        let service = "did:web:api.bsky.app#bsky_appview"
        #expect(needed("com.atproto.identity.updateHandle") == ["identity:handle"])
        #expect(needed("com.atproto.identity.updateHandle", proxy: service) == ["identity:handle"])
        #expect(needed("com.atproto.identity.signPlcOperation") == ["identity:*"])
        #expect(needed("com.atproto.repo.importRepo") == ["account:repo?action=manage"])
        #expect(needed("com.atproto.server.confirmEmail") == ["account:email?action=manage"])
        #expect(needed("com.atproto.repo.getRecord", proxy: service).isEmpty)
        for open in ["com.atproto.repo.listRecords", "com.atproto.sync.getBlob", "com.atproto.server.getSession"] {
            let needs = RequiredPermissions.of(nsid(open), proxy: nil, body: nil, contentType: nil)
            #expect(needs.wherever.isEmpty && !needs.lentToNoGrant, "\(open)")
        }
    }

    @Test("a method is judged whatever the case of its name, as a PDS routes it")
    func caseOfNames() {
        #expect(needed("com.atproto.identity.UpdateHandle") == ["identity:handle"])
        let body = #"{"repo":"did:plc:x","collection":"app.bsky.feed.post","rkey":"a"}"#
        #expect(
            needed("COM.ATPROTO.REPO.DELETERECORD", body: body, type: json) == ["repo:app.bsky.feed.post?action=delete"]
        )
        let passwords = RequiredPermissions.of(
            nsid("com.atproto.server.ListAppPasswords"),
            proxy: nil,
            body: nil,
            contentType: nil
        )
        #expect(passwords.lentToNoGrant)
        #expect(PDSMethods.canonical(nsid("com.atproto.server.GETSESSION")).rawValue == "com.atproto.server.getSession")
        #expect(PDSMethods.canonical(nsid("com.example.Feed.get")).rawValue == "com.example.Feed.get")
        let unlisted = RequiredPermissions.of(
            nsid("com.atproto.sync.listReposByCollection"),
            proxy: nil,
            body: nil,
            contentType: nil
        )
        #expect(unlisted.wherever.map(\.description) == ["rpc:com.atproto.sync.listReposByCollection?aud=*"])
    }

    @Test("a service ID with + & = ? keeps its meaning in the permission a call needs")
    func awkwardServiceIDs() throws {
        let exact = try ScopeSet(requested: "rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview")
        for proxy in ["did:web:api.bsky.app#bsky_appview+x", "did:web:evil.example#svc&aud=*"] {
            let needs = RequiredPermissions.of(
                nsid("app.bsky.actor.getProfile"),
                proxy: proxy,
                body: nil,
                contentType: nil
            )
            let permission = try #require(needs.permissions.first, "\(proxy)")
            #expect(needs.isJudgeable && needs.permissions.count == 1)
            #expect(!exact.covers(permission), "\(permission)")
            #expect(try ScopeSet(requested: permission.description).covers(permission))
        }
        let minted = RequiredPermissions.of(
            nsid("com.atproto.server.getServiceAuth"),
            parameters: [("aud", "did:web:api.bsky.app#bsky_appview+x"), ("lxm", "app.bsky.actor.getProfile")],
            proxy: nil,
            body: nil,
            contentType: nil
        )
        #expect(minted.permissions.count == 1 && !exact.covers(minted.permissions[0]))
    }

    @Test("push registration needs rpc at the body's service, whatever atproto-proxy names; unreadable, unjudgeable")
    func pushRegistration() {
        let body = Data(#"{"serviceDid":"did:web:push.example","token":"t","platform":"web","appId":"a"}"#.utf8)
        let needs = RequiredPermissions.of(
            nsid("app.bsky.notification.registerPush"),
            proxy: "did:web:api.bsky.app#bsky_appview",
            body: body,
            contentType: json
        )
        #expect(
            needs.permissions.map(\.description)
                == ["rpc:app.bsky.notification.registerPush?aud=did:web:push.example%23bsky_notif"]
        )
        let unread = RequiredPermissions.of(
            nsid("app.bsky.notification.unregisterPush"),
            proxy: nil,
            body: nil,
            contentType: nil
        )
        #expect(!unread.isJudgeable)
        let badProxy = RequiredPermissions.of(
            nsid("app.bsky.feed.getTimeline"),
            proxy: "not#",
            body: nil,
            contentType: nil
        )
        #expect(!badProxy.isJudgeable && badProxy.wherever.isEmpty)
    }

    @Test("app passwords, account management and admin methods are lent to no grant")
    func noGrant() {
        for method in [
            "com.atproto.server.listAppPasswords", "com.atproto.server.deactivateAccount",
            "com.atproto.server.getAccountInviteCodes", "com.atproto.admin.getAccountInfo",
        ] {
            let needs = RequiredPermissions.of(
                nsid(method),
                proxy: "did:web:x.example#svc",
                body: nil,
                contentType: nil
            )
            #expect(needs.lentToNoGrant && needs.wherever.isEmpty, "\(method)")
        }
    }

    @Test("a call the PDS forwards to a service of its choice needs rpc at any audience, unless one is named")
    func defaultService() {
        let unnamed = RequiredPermissions.of(
            nsid("tools.ozone.moderation.getRepo"),
            proxy: nil,
            body: nil,
            contentType: nil
        )
        #expect(unnamed.permissions.isEmpty)
        #expect(unnamed.wherever.map(\.description) == ["rpc:tools.ozone.moderation.getRepo?aud=*"])
        let named = RequiredPermissions.of(
            nsid("tools.ozone.moderation.getRepo"),
            proxy: "did:plc:ar7c4by46qjdydhdevvrndac#atproto_labeler",
            body: nil,
            contentType: nil
        )
        #expect(named.anyService == nil)
        #expect(
            named.permissions.map(\.description)
                == ["rpc:tools.ozone.moderation.getRepo?aud=did:plc:ar7c4by46qjdydhdevvrndac%23atproto_labeler"]
        )
    }

    @Test("a service auth token needs the rpc permission of its lxm and aud, as the PDS checks it")
    func serviceAuth() {
        func needed(_ parameters: [(String, String)]) -> [String] {
            let nsid = nsid("com.atproto.server.getServiceAuth")
            return RequiredPermissions.of(nsid, parameters: parameters, proxy: nil, body: nil, contentType: nil)
                .permissions.map(\.description)
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
