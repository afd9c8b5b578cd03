import ATProtoSyntax
import AccountManager
import Foundation
import HTTPTransport
import Keystore
import OAuthSessionManager
import Testing

/// A file store written by atoauth before sessions had a credential (an OAuth and an app-password account, signed in
/// against the sandbox with the command-line tool), read by this version.
@Suite("Stores written by earlier versions keep loading")
struct StoredFormatTests {
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/store-2026-11")

    /// A private copy of the fixture with the modes the store insists on (git keeps neither).
    private func copiedStore() throws -> (keystore: EncryptedFileKeystore, directory: URL) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("atoauth-stored-format-\(UUID().uuidString)", isDirectory: true)
        let home = directory.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.fixture.path) {
            let target =
                name == "store.key" ? directory.appendingPathComponent(name) : home.appendingPathComponent(name)
            try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent(name), to: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path)
        let keyFile = directory.appendingPathComponent("store.key")
        return (try EncryptedFileKeystore(directory: home, keySource: .keyFile(keyFile)), directory)
    }

    @Test("both kinds of session load with the credential their stored members describe")
    func bothKinds() async throws {
        let (keystore, directory) = try copiedStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await AsyncHTTPClientTransport.withTransport { transport in
            let accounts = AccountManager(keystore: keystore, transport: transport)
            let listing = try await accounts.accountListing()
            #expect(listing.unreadable.isEmpty)
            #expect(listing.accounts.map(\.displayName) == ["alice.test", "bob.test"])
            #expect(listing.accounts.map(\.kind) == [.oauth, .appPassword])
            #expect(listing.accounts.map(\.active) == [true, false])

            let alice = try await accounts.restore("alice.test").session
            guard case .oauth(let grant) = alice.credential else {
                Issue.record("alice's session is not OAuth: \(alice)")
                return
            }
            #expect(grant.issuer == "http://127.0.0.1:32879")
            #expect(grant.clientID.hasPrefix("http://localhost?"))
            #expect(grant.tokenEndpoint.path == "/oauth/token")
            #expect(grant.revocationEndpoint?.path == "/oauth/revoke")
            #expect(alice.requestedScope == "atproto repo:app.bsky.feed.post?action=create")
            #expect(alice.pds.absoluteString == "http://127.0.0.1:41389")

            let bob = try await accounts.restore("bob.test").session
            guard case .appPassword(let legacy) = bob.credential else {
                Issue.record("bob's session is not an app-password session: \(bob)")
                return
            }
            #expect(legacy.refreshEndpoint.absoluteString.hasSuffix("/xrpc/com.atproto.server.refreshSession"))
            #expect(legacy.deleteEndpoint.absoluteString.hasSuffix("/xrpc/com.atproto.server.deleteSession"))
            #expect(bob.issuer == bob.pds.absoluteString)
            #expect(bob.endsAtLatest > bob.createdAt)
        }
    }

    @Test("a stored session written again keeps every member; `kind` is now always written")
    func rewrittenUnchanged() async throws {
        let (keystore, directory) = try copiedStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let names = try keystore.names().filter { $0.hasPrefix("session/") }
        #expect(names.count == 2)
        for name in names {
            let stored = try #require(try keystore.load(name))
            let rewritten = try encoder.encode(try decoder.decode(Session.self, from: stored))
            var before = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
            let after = try #require(try JSONSerialization.jsonObject(with: rewritten) as? [String: Any])
            // OAuth sessions were stored without `kind`, which meant OAuth.
            before["kind"] = before["kind"] ?? "oauth"
            #expect(Set(before.keys) == Set(after.keys), "\(name)")
            // Only the names of members that differ are reported: the values hold tokens.
            let differing = before.keys.filter { !((before[$0] as? NSObject)?.isEqual(after[$0]) ?? false) }
            #expect(differing.isEmpty, "\(name): \(differing.sorted())")
        }
    }
}
