import ATClient
import ATOAuthTesting
import ATProtoPermissions
import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import OAuthSessionManager
import Sandbox
import Testing

@Suite("ATClient and the session's permissions")
struct PermissionTests {
    private struct Post: Codable, Sendable {
        var text: String
    }

    /// Signs alice in, then narrows her stored grant to `scope` (what a server granting less would have stored).
    private func narrowed(
        _ world: SandboxWorld,
        scope: String,
        pds: URL? = nil
    ) async throws -> (AccountManager, RecordingTransport, Session) {
        let recording = RecordingTransport(world.transport)
        let accounts = world.accounts(transport: recording)
        var session = try await world.signIn(with: world.sessions())
        try await accounts.switchTo(.did(session.did))
        session.scope = scope
        if let pds { session.pds = pds }
        try world.keystore.save(try storedForm(session), as: Session.entryName(did: session.did))
        return (accounts, recording, session)
    }

    /// Posts to `session`'s repository through `client`, expecting a missing permission, and returns it.
    private func refusedPost(
        _ client: ATClient,
        _ session: Session,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> MissingPermissionError? {
        await #expect(throws: MissingPermissionError.self, sourceLocation: sourceLocation) {
            try await client.createRecord(
                repo: session.did.rawValue,
                collection: "app.bsky.feed.post",
                record: Post(text: "hi")
            )
        }
    }

    @Test("a write the grant clearly lacks is refused before sending; an allowed one is sent")
    func refusedLocally() async throws {
        try await SandboxWorld.with { world in
            let scope = "atproto repo:app.bsky.feed.like?action=create blob:image/*"
            let (accounts, recording, session) = try await narrowed(world, scope: scope)
            let client = try await accounts.client(for: .did(session.did))
            let before = recording.count

            let error = await refusedPost(client, session)
            #expect(recording.count == before)
            #expect(error?.refusedLocally == true)
            #expect(error?.permission?.description == "repo:app.bsky.feed.post?action=create")
            #expect(error?.account == "alice.test")
            #expect(
                error?.scopeToRequest
                    == "atproto repo:app.bsky.feed.like?action=create blob:image/* repo:app.bsky.feed.post?action=create"
            )
            let video = await #expect(throws: MissingPermissionError.self) {
                try await client.uploadBlob(Data([0, 0, 0, 0x18]), mimeType: "video/mp4")
            }
            #expect(video?.permission?.description == "blob:video/mp4")
            let proxied = await #expect(throws: MissingPermissionError.self) {
                try await client.getProfile(actor: "alice.test")
            }
            #expect(
                proxied?.permission?.description
                    == "rpc:app.bsky.actor.getProfile?aud=did:web:api.bsky.app%23bsky_appview"
            )
            #expect(recording.count == before)
            // Reads need no permission beyond atproto.
            #expect(try await client.getSession().did == session.did.rawValue)
        }
    }

    @Test("the retry after a refused access token is checked against the refreshed grant, which may be narrower")
    func retryCheckedAgainstRefreshedGrant() async throws {
        try await SandboxWorld.with { world in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            let session = try await world.signIn(with: world.sessions())
            try await accounts.switchTo(.did(session.did))
            // The PDS refuses the stored access token; the refresh it leads to no longer grants transition:generic.
            try world.breakAccessToken(of: session)
            world.server.updateConfiguration { $0.withheldPermissions = ["transition:generic"] }
            let client = try await accounts.client(for: .did(session.did))

            let error = await refusedPost(client, session)
            #expect(error?.refusedLocally == true, "\(String(describing: error))")
            let paths = recording.requests.map(\.url.path)
            let refresh = try #require(paths.lastIndex(of: "/oauth/token"))
            #expect(paths[..<refresh].contains { $0.hasSuffix("createRecord") }, "the first attempt was sent")
            #expect(!paths[refresh...].contains { $0.hasSuffix("createRecord") }, "the retry was not: \(paths)")
            #expect(try await accounts.connection(for: session.did).session.scope == "atproto")
        }
    }

    @Test("a grant with anything not understood here is left to the server: the call is sent")
    func unsureSends() async throws {
        try await SandboxWorld.with { world in
            let scope = "atproto include:app.bsky.authCreatePosts future:permission"
            let (accounts, recording, session) = try await narrowed(world, scope: scope)
            let client = try await accounts.client(for: .did(session.did))
            let before = recording.count
            _ = try? await client.createRecord(
                repo: session.did.rawValue,
                collection: "app.bsky.feed.post",
                record: Post(text: "hi")
            )
            #expect(recording.count > before)
        }
    }

    @Test("403 ScopeMissingError from the PDS becomes MissingPermissionError naming the scope")
    func serverRefusal() async throws {
        let answer = ScriptedResponse.json(
            #"{"error":"ScopeMissingError","message":"Missing required scope \"repo:app.bsky.feed.post?action=create\""}"#,
            status: 403
        )
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(answer)) { pds in
            try await SandboxWorld.with { world in
                // The grant is not fully understood, so the client sends and the (scripted) PDS refuses.
                let (accounts, _, session) = try await narrowed(
                    world,
                    scope: "atproto transition:generic future:permission",
                    pds: pds.url("/")
                )
                let client = try await accounts.client(for: .did(session.did))
                let error = await refusedPost(client, session)
                #expect(error?.refusedLocally == false)
                #expect(error?.permission?.description == "repo:app.bsky.feed.post?action=create")
                #expect(error?.description.contains("the PDS refused it with ScopeMissingError") == true)
            }
        }
    }

    @Test("a 403 that is not ScopeMissingError stays an XRPCError")
    func otherForbidden() async throws {
        let answer = ScriptedResponse.json(#"{"error":"AccountTakedown","message":"taken down"}"#, status: 403)
        try await LoopbackHTTPServer.withServer(handler: LoopbackHTTPServer.always(answer)) { pds in
            try await SandboxWorld.with { world in
                let (accounts, _, session) = try await narrowed(world, scope: "atproto", pds: pds.url("/"))
                let client = try await accounts.client(for: .did(session.did))
                let error = await #expect(throws: XRPCError.self) { try await client.getSession() }
                #expect(error?.error == "AccountTakedown")
            }
        }
    }
}
