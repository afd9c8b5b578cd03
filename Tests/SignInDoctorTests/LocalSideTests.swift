import ATOAuthTesting
import ATProtoSyntax
import Foundation
import OAuthSessionManager
import SignInDoctor
import Testing

@Suite("The doctor's checks of the local side")
struct LocalSideTests {
    static func session(
        createdAgo: TimeInterval = 3_600,
        pds: String = ScriptedWorld.pds,
        issuer: String = ScriptedWorld.issuer
    ) throws -> Session {
        let now = Date()
        return Session(
            did: try DID(validating: ScriptedWorld.did),
            handle: try Handle(validating: ScriptedWorld.handle),
            pds: try #require(URL(string: pds)),
            scope: "atproto transition:generic",
            accessToken: "secret-access-token",
            accessTokenExpiresAt: now.addingTimeInterval(600),
            refreshToken: "secret-refresh-token",
            createdAt: now.addingTimeInterval(-createdAgo),
            updatedAt: now.addingTimeInterval(-60),
            credential: .oauth(
                OAuthGrant(
                    issuer: issuer,
                    clientID: "http://localhost",
                    tokenEndpoint: try #require(URL(string: "\(issuer)/oauth/token")),
                    revocationEndpoint: nil
                )
            )
        )
    }

    /// A private store directory with one entry file, modes as atoauth makes them.
    static func store() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let entry = home.appendingPathComponent("a.entry")
        try Data("sealed".utf8).write(to: entry)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: entry.path)
        return home
    }

    @Test("A signed-in account in good order passes every local check, and no token appears")
    func healthy() async throws {
        let home = try Self.store()
        defer { try? FileManager.default.removeItem(at: home) }
        let local = LocalAccount(session: try Self.session(), store: .files(home: home, keyFile: nil))
        let diagnosis = try await ScriptedWorld().diagnose(local: local)
        for check in ["store-files", "session-expiry", "last-refresh", "account-moved"] {
            #expect(diagnosis.status(check) == .pass, "\(check): \(diagnosis.finding(check)?.seen ?? "")")
        }
        let json = String(decoding: try JSONEncoder().encode(diagnosis), as: UTF8.self)
        #expect(!json.contains("secret-"))
    }

    @Test("A store file open to others fails store-files")
    func looseMode() async throws {
        let home = try Self.store()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o644],
            ofItemAtPath: home.appendingPathComponent("a.entry").path
        )
        let local = LocalAccount(session: try Self.session(), store: .files(home: home, keyFile: nil))
        let finding = try #require(try await ScriptedWorld().diagnose(local: local).finding("store-files"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("644"))
        #expect(finding.who == .user)
    }

    @Test("A key file open to others fails store-files, naming it; at 0600 it passes")
    func looseKeyFile() async throws {
        let home = try Self.store()
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-key-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: keys)
        }
        try FileManager.default.createDirectory(
            at: keys,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let keyFile = keys.appendingPathComponent("store.key")
        try Data(repeating: 7, count: 32).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        let local = LocalAccount(session: try Self.session(), store: .files(home: home, keyFile: keyFile))
        let finding = try #require(try await ScriptedWorld().diagnose(local: local).finding("store-files"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("\(keyFile.path) is 644"), "\(finding.seen)")
        #expect(!finding.seen.contains(home.path + "/"), "only the key file is open: \(finding.seen)")
        #expect(finding.who == .user)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        let fixed = try #require(try await ScriptedWorld().diagnose(local: local).finding("store-files"))
        #expect(fixed.status == .pass, "\(fixed.seen)")
        #expect(fixed.seen.contains("the key file \(keyFile.path) is 0600"))
    }

    @Test("A session past its two weeks fails; one ending within a day warns")
    func expiry() async throws {
        let home = try Self.store()
        defer { try? FileManager.default.removeItem(at: home) }
        let ended = LocalAccount(
            session: try Self.session(createdAgo: 15 * 86_400),
            store: .files(home: home, keyFile: nil)
        )
        #expect(try await ScriptedWorld().diagnose(local: ended).status("session-expiry") == .fail)
        let ending = LocalAccount(
            session: try Self.session(createdAgo: 13.5 * 86_400),
            store: .files(home: home, keyFile: nil)
        )
        #expect(try await ScriptedWorld().diagnose(local: ending).status("session-expiry") == .warn)
    }

    @Test(
        "A refresh cut off after sending fails last-refresh, saying to sign in again",
        arguments: [
            LocalAccount.UnsettledRefresh.cutOff, .unanswered,
        ]
    )
    func unsettledRefresh(_ unsettled: LocalAccount.UnsettledRefresh) async throws {
        let home = try Self.store()
        defer { try? FileManager.default.removeItem(at: home) }
        let local = LocalAccount(
            session: try Self.session(),
            unsettledRefresh: unsettled,
            store: .files(home: home, keyFile: nil)
        )
        let finding = try #require(try await ScriptedWorld().diagnose(local: local).finding("last-refresh"))
        #expect(finding.status == .fail)
        #expect(finding.fix?.contains("atoauth accounts add alice.example.com") == true)
    }

    @Test(
        "An account whose PDS or authorization server changed since sign-in fails account-moved",
        arguments: [
            ("https://old-pds.example.com", ScriptedWorld.issuer), (ScriptedWorld.pds, "https://old-auth.example.com"),
        ]
    )
    func moved(pds: String, issuer: String) async throws {
        let home = try Self.store()
        defer { try? FileManager.default.removeItem(at: home) }
        let local = LocalAccount(
            session: try Self.session(pds: pds, issuer: issuer),
            store: .files(home: home, keyFile: nil)
        )
        let finding = try #require(try await ScriptedWorld().diagnose(local: local).finding("account-moved"))
        #expect(finding.status == .fail)
        #expect(finding.seen.contains("old-"))
        #expect(finding.who == .user)
    }

    @Test("A changed authorization server that fails its checks is for its operator: signing in again fails too")
    func movedToBrokenServer() async throws {
        let home = try Self.store()
        defer { try? FileManager.default.removeItem(at: home) }
        let local = LocalAccount(
            session: try Self.session(issuer: "https://old-auth.example.com"),
            store: .files(home: home, keyFile: nil)
        )
        var world = ScriptedWorld()
        world.metadata["require_pushed_authorization_requests"] = false
        let diagnosis = try await world.diagnose(local: local)
        #expect(diagnosis.status("as-metadata-par") == .fail)
        let finding = try #require(diagnosis.finding("account-moved"))
        #expect(finding.status == .fail)
        #expect(finding.who == .server)
        #expect(finding.fix?.contains("Sign in again") == false, "\(finding.fix ?? "")")
    }

    @Test("A refresh that failed after the last tokens were issued warns, saying when and why; an older one does not")
    func failedRefresh() async throws {
        let home = try Self.store()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try Self.session()
        var recent = LocalAccount(session: session, store: .files(home: home, keyFile: nil))
        recent.lastRefreshFailure = (session.updatedAt.addingTimeInterval(30), "HTTP 503 server_error")
        let finding = try #require(try await ScriptedWorld().diagnose(local: recent).finding("last-refresh"))
        #expect(finding.status == .warn)
        #expect(finding.seen.contains("HTTP 503 server_error"))
        var old = LocalAccount(session: session, store: .files(home: home, keyFile: nil))
        old.lastRefreshFailure = (session.updatedAt.addingTimeInterval(-30), "HTTP 503 server_error")
        #expect(try await ScriptedWorld().diagnose(local: old).status("last-refresh") == .pass)
    }

    @Test("A store that cannot be read fails store-files for the user, skips the other local checks; the rest runs")
    func unreadableStore() async throws {
        struct Locked: Error, CustomStringConvertible { var description: String { "a passphrase is needed" } }
        let world = ScriptedWorld()
        let diagnosis = try await SignInDoctor(
            transport: world.transport(),
            configuration: SignInDoctor.Configuration(
                addressResolver: FakeAddressResolver(),
                dns: FakeDNS(world.dns)
            )
        ).diagnose(ScriptedWorld.handle) { _ in throw Locked() }
        let finding = try #require(diagnosis.finding("store-files"))
        #expect(finding.status == .fail)
        #expect(finding.who == .user)
        #expect(finding.seen.contains("a passphrase is needed"))
        #expect(diagnosis.status("session-live") == .skip)
        #expect(diagnosis.status("par-request") == .pass)
    }
}
