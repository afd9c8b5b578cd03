import ATOAuthTesting
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Foundation
import Gateway
import HTTPTransport
import Testing

/// A limited token through a gateway serving an app-password account, which the PDS lets do everything: the token
/// gets only what a PDS would give an OAuth grant with its permissions.
@Suite("A limited token gets only what a PDS gives an OAuth grant with its permissions")
struct LeastPrivilegeTests {
    @Test("no app passwords, account or identity changes, unnamed services or email without their permissions")
    func pdsMethods() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            let alice = try await world.signInWithAppPassword(with: accounts)
            let tokens = accounts.gatewayTokens()
            func token(_ name: String, _ scope: String?) async throws -> String {
                let token = GatewayToken.generate()
                _ = try await tokens.create(
                    name: name,
                    token: token,
                    accounts: [],
                    scope: try scope.map { try ScopeSet(requested: $0) },
                    lifetime: nil,
                    now: Date()
                )
                return token
            }
            let reader = try await token("reader", "rpc:app.bsky.actor.getProfile?aud=*")
            let appView = try await token(
                "appview",
                "rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview"
            )
            let mailer = try await token("mailer", "rpc:app.bsky.actor.getProfile?aud=* account:email")
            let open = try await token("open", nil)
            try await RunningGateway.with(accounts, transport: world.transport) { gateway in
                let reads = GatewayClient(port: gateway.port, token: reader, transport: world.transport)
                func sent(_ method: String) -> Bool { recording.requests.contains { $0.url.path.hasSuffix(method) } }

                let session = try GatewayClient.object(try await reads.send("/xrpc/com.atproto.server.getSession"))
                #expect(session["did"] as? String == alice.did.rawValue)
                #expect(session["email"] == nil && session["emailConfirmed"] == nil, "\(session)")
                let mail = try await GatewayClient(port: gateway.port, token: mailer, transport: world.transport)
                    .send("/xrpc/com.atproto.server.getSession")
                #expect(try GatewayClient.object(mail)["email"] as? String == "alice.test@example.com")

                let passwords = try await reads.send(
                    "/xrpc/com.atproto.server.listAppPasswords",
                    headers: ["atproto-proxy": "did:web:api.bsky.app#bsky_appview"]
                )
                #expect(passwords.status == 403)
                #expect(try GatewayClient.errorName(passwords) == "ScopeMissingError")
                #expect(!sent("listAppPasswords"))

                let handle = try await reads.send(
                    "/xrpc/com.atproto.identity.updateHandle",
                    method: .post,
                    headers: ["Content-Type": "application/json"],
                    body: Data(#"{"handle":"mallory.test"}"#.utf8)
                )
                #expect(handle.status == 403)
                #expect(String(decoding: handle.body, as: UTF8.self).contains("identity:handle"))
                #expect(!sent("updateHandle"))

                let unnamed = try await reads.send("/xrpc/com.example.feed.getSecrets")
                #expect(unnamed.status == 403)
                #expect(String(decoding: unnamed.body, as: UTF8.self).contains("rpc:com.example.feed.getSecrets?aud=*"))
                #expect(!sent("getSecrets"))
                _ = try await reads.send(
                    "/xrpc/app.bsky.actor.getProfile?actor=alice.test",
                    headers: ["atproto-proxy": "did:web:api.bsky.app#bsky_appview"]
                )
                #expect(sent("getProfile"))
                // A service ID the scope syntax must escape is judged as itself, not dropped.
                let elsewhere = try await GatewayClient(port: gateway.port, token: appView, transport: world.transport)
                    .send(
                        "/xrpc/app.bsky.actor.getProfile?actor=alice.test",
                        headers: ["atproto-proxy": "did:web:api.bsky.app#bsky_appview+x"]
                    )
                #expect(elsewhere.status == 403)
                #expect(try GatewayClient.errorName(elsewhere) == "ScopeMissingError")

                // A PDS runs a method whatever the case of its name: it is judged, and sent, as its own spelling.
                let shouting = try await reads.send("/xrpc/COM.ATPROTO.SERVER.GETSESSION")
                #expect(try GatewayClient.object(shouting)["email"] == nil)
                #expect(recording.requests.last?.url.path == "/xrpc/com.atproto.server.getSession")
                let listing = try await reads.send("/xrpc/com.atproto.server.ListAppPasswords")
                #expect(listing.status == 403)
                #expect(!recording.requests.contains { $0.url.path.lowercased().hasSuffix("listapppasswords") })
                let refused = try await reads.send("/_gateway/metrics")
                #expect(refused.status == 403)
                #expect(try GatewayClient.errorName(refused) == "Forbidden")

                _ = try await GatewayClient(port: gateway.port, token: open, transport: world.transport)
                    .send("/xrpc/com.atproto.server.listAppPasswords")
                #expect(sent("listAppPasswords"))
            }
        }
    }
}
