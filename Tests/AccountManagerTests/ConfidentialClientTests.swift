import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Foundation
import HTTPTransport
import Keystore
import OAuthMetadata
import OAuthSessionManager
import Sandbox
import Synchronization
import Testing

/// A confidential client (`private_key_jwt`) against the sandbox, which verifies every assertion (RFC 7523) with its
/// own code: sign-in, refresh, revocation, key rotation and a key that leaves the published set.
@Suite("A confidential client signs in, refreshes, revokes and rotates its keys")
struct ConfidentialClientTests {
    /// The client document the test serves, and the keys it publishes.
    final class ClientDocument: Sendable {
        let published = Mutex<[ClientKey]>([])

        func body(clientID: String) throws -> Data {
            let keys = published.withLock { $0.map(\.publicJWK) }
            return try JSONSerialization.data(withJSONObject: [
                "client_id": clientID, "application_type": "web", "client_name": "Confidential test service",
                "redirect_uris": ["http://127.0.0.1:9/callback"], "scope": "atproto transition:generic",
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "private_key_jwt", "token_endpoint_auth_signing_alg": "ES256",
                "dpop_bound_access_tokens": true, "jwks": ["keys": keys],
            ])
        }
    }

    /// Serves the document from a loopback server (the sandbox fetches it, as it does a development client's), starts
    /// the sandbox, and runs `body`.
    static func withService<T>(
        faults: SandboxFaults = .none,
        _ body: (SandboxWorld, URL, ClientDocument) async throws -> T
    ) async throws -> T {
        let document = ClientDocument()
        let clientID = Mutex<String>("")
        let handler: LoopbackHTTPServer.Handler = { _ in
            let body = (try? document.body(clientID: clientID.withLock { $0 })) ?? Data()
            return ScriptedResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
        }
        return try await LoopbackHTTPServer.withServer(handler: handler) { server in
            let url = server.url("/client-metadata.json")
            clientID.withLock { $0 = url.absoluteString }
            return try await SandboxWorld.with(SandboxConfiguration(autoApprove: true, faults: faults)) { world in
                try await body(world, url, document)
            }
        }
    }

    static func signIn(
        _ handle: String,
        world: SandboxWorld,
        accounts: AccountManager,
        clientID: URL
    ) async throws -> Account {
        let client = try await accounts.hostedClient(clientID: clientID, redirectURI: nil)
        let request = try await accounts.authorize(handle, client: client)
        return try await accounts.callback(try await world.approve(request)).account
    }

    /// Adds a new client key, publishes it alone, and signs alice.test in with it.
    static func signInWithNewKey(
        _ world: SandboxWorld,
        _ clientID: URL,
        _ document: ClientDocument
    ) async throws -> (AccountManager, Account, ClientKey) {
        let accounts = world.accounts()
        let key = ClientKey()
        _ = try await accounts.addClientKey(key)
        document.published.withLock { $0 = [key] }
        return (accounts, try await signIn("alice.test", world: world, accounts: accounts, clientID: clientID), key)
    }

    static func boundKey(_ accounts: AccountManager, _ account: Account) async throws -> String? {
        guard case .oauth(let grant) = try await accounts.restore(.did(account.did)).session.credential else {
            return nil
        }
        return grant.clientKeyID
    }

    @Test("Sign-in, refresh and sign-out each carry a new assertion the sandbox accepts, nonce retries included")
    func lifecycle() async throws {
        try await Self.withService { world, clientID, document in
            let (accounts, alice, key) = try await Self.signInWithNewKey(world, clientID, document)
            #expect(try await Self.boundKey(accounts, alice) == key.keyID)
            let afterSignIn = world.server.counters
            #expect(afterSignIn.clientAssertionsAccepted >= 2, "the PAR and the code exchange")
            #expect(afterSignIn.nonceChallengesSent >= 1, "a nonce retry happened, with a new assertion")
            #expect(afterSignIn.clientAssertionsRefused == 0)

            world.clock.advance(by: 3_600)
            let client = try await accounts.client(for: .did(alice.did))
            _ = try await client.getSession()
            let afterRefresh = world.server.counters
            #expect(afterRefresh.refreshGrantsSucceeded == afterSignIn.refreshGrantsSucceeded + 1)
            #expect(afterRefresh.clientAssertionsAccepted > afterSignIn.clientAssertionsAccepted)

            let removal = try await accounts.remove(.did(alice.did))
            guard case .account(_, let revocation) = removal.removed else {
                Issue.record("the account was removed as unreadable")
                return
            }
            #expect(revocation == .revoked)
            #expect(world.server.counters.clientAssertionsRefused == 0)
        }
    }

    @Test(
        "Assertions are dated 30 s back: a server 20 s behind or ahead takes them (none from its future, none over 60 s)",
        arguments: [-20.0, 20]
    )
    func serverClockMargin(skew: TimeInterval) async throws {
        try await Self.withService(faults: SandboxFaults(clockSkew: skew)) { world, clientID, document in
            let (accounts, alice, key) = try await Self.signInWithNewKey(world, clientID, document)
            #expect(try await Self.boundKey(accounts, alice) == key.keyID)
            #expect(world.server.counters.clientAssertionsRefused == 0)
        }
    }

    @Test("A server whose clock is 40 s off refuses the assertions, and the failure names the clock and the doctor")
    func serverClockTooFar() async throws {
        try await Self.withService(faults: SandboxFaults(clockSkew: 40)) { world, clientID, document in
            let error = await #expect(throws: SessionError.self) {
                _ = try await Self.signInWithNewKey(world, clientID, document)
            }
            #expect(error?.serverError == .invalidClient, "\(String(describing: error))")
            let text = error?.description ?? ""
            #expect(text.contains("clock") && text.contains("atoauth doctor"), "\(text)")
        }
    }

    /// The path and `client_assertion` of each request that carries one, in the order sent.
    static func assertions(in requests: [HTTPRequest]) -> [(path: String, assertion: String)] {
        requests.compactMap { request in
            guard let body = request.body else { return nil }
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, parts[0] == "client_assertion" else { continue }
                return (request.url.path, parts[1].removingPercentEncoding ?? parts[1])
            }
            return nil
        }
    }

    /// The `jti` claim of a JWT's payload (RFC 7519 §4.1.7), decoded here without the library's code.
    static func jti(of jwt: String) throws -> String {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3, "a compact JWS has three parts")
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let payload = try #require(Data(base64Encoded: base64))
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        return try #require(claims["jti"] as? String)
    }

    /// The sandbox asks for a DPoP nonce before it reads the assertion, so a client that sent the challenged
    /// attempt's assertion again on the retry would pass every other test: this one reads the assertions on the wire.
    @Test("A retried request carries a new assertion: every attempt's jti differs, nonce retries included")
    func newAssertionOnEveryAttempt() async throws {
        try await Self.withService { world, clientID, document in
            let recording = RecordingTransport(world.transport)
            let accounts = world.accounts(transport: recording)
            let key = ClientKey()
            _ = try await accounts.addClientKey(key)
            document.published.withLock { $0 = [key] }
            let client = try await accounts.hostedClient(clientID: clientID, redirectURI: nil)

            // Each step starts without a nonce, so its first attempt is answered use_dpop_nonce and retried.
            accounts.nonceCache.removeAll()
            var start = recording.count
            let request = try await accounts.authorize("alice.test", client: client)
            let par = Self.assertions(in: Array(recording.requests.dropFirst(start)))
            let callback = try await world.approve(request)

            accounts.nonceCache.removeAll()
            start = recording.count
            let alice = try await accounts.callback(callback).account
            let exchange = Self.assertions(in: Array(recording.requests.dropFirst(start)))

            world.clock.advance(by: 3_600)
            accounts.nonceCache.removeAll()
            start = recording.count
            _ = try await accounts.client(for: .did(alice.did)).getSession()
            let refresh = Self.assertions(in: Array(recording.requests.dropFirst(start)))

            accounts.nonceCache.removeAll()
            start = recording.count
            _ = try await accounts.remove(.did(alice.did))
            let revocation = Self.assertions(in: Array(recording.requests.dropFirst(start)))

            for (step, attempts) in [("PAR", par), ("code exchange", exchange), ("refresh", refresh)] {
                #expect(attempts.count == 2, "\(step): the challenged attempt and its retry, each with an assertion")
                #expect(Set(attempts.map { $0.path }).count == 1, "\(step): both attempts go to the same endpoint")
            }
            #expect(revocation.count >= 2, "the refresh token's and the access token's revocation")
            let sent = par + exchange + refresh + revocation
            let jtis = try sent.map { try Self.jti(of: $0.assertion) }
            #expect(Set(jtis).count == jtis.count, "no assertion or jti is sent twice: \(jtis)")
            #expect(Set(sent.map { $0.assertion }).count == sent.count)
            #expect(world.server.counters.clientAssertionsRefused == 0)
        }
    }

    @Test("Rotation: sessions keep their key, new sign-ins take the next key once due, and removal is guarded")
    func rotation() async throws {
        try await Self.withService { world, clientID, document in
            let accounts = world.accounts()
            let first = ClientKey()
            let second = ClientKey()
            _ = try await accounts.addClientKey(first)
            document.published.withLock { $0 = [first] }
            let alice = try await Self.signIn("alice.test", world: world, accounts: accounts, clientID: clientID)

            #expect(try await accounts.addClientKey(second, publishedFor: 600).state == .next)
            document.published.withLock { $0 = [first, second] }
            _ = world.server.resetClientCache()
            let early = try await Self.signIn("bob.test", world: world, accounts: accounts, clientID: clientID)
            #expect(try await Self.boundKey(accounts, early) == first.keyID, "the next key is not used before its wait")

            world.clock.advance(by: 601)
            let bob = try await Self.signIn("bob.test", world: world, accounts: accounts, clientID: clientID)
            #expect(try await Self.boundKey(accounts, bob) == second.keyID)
            let states = try await accounts.clientKeys().map { ($0.record.keyID, $0.record.state, $0.sessions) }
            #expect(states.map(\.0) == [first.keyID, second.keyID])
            #expect(states.map(\.1) == [.retiring, .current])
            #expect(states.map(\.2) == [1, 1])

            // The retiring key still refreshes the session bound to it.
            world.clock.advance(by: 3_600)
            _ = try await accounts.client(for: .did(alice.did)).getSession()

            let refusal = await #expect(throws: SessionError.self) { try await accounts.removeClientKey(first.keyID) }
            #expect(refusal?.reason.contains("1 session uses the client key \(first.keyID)") == true)
            let ended = try await accounts.removeClientKey(first.keyID, force: true)
            #expect(ended.map(\.did) == [alice.did])
            #expect(try await accounts.accounts().map(\.did) == [bob.did])

            // Using alice now says why her session ended, naming the key and the client, until she is removed.
            for name: ATIdentifier in [.did(alice.did), "alice.test"] {
                let error = await #expect(throws: AccountError.self) { try await accounts.account(name) }
                #expect(error?.code == .sessionEnded)
                #expect(error?.description.contains(first.keyID) == true, "\(error.map { "\($0)" } ?? "")")
                #expect(error?.confidentialClientID == clientID.absoluteString)
            }
            let removal = try await accounts.remove("alice.test")
            guard case .account(let removed, let revocation) = removal.removed else {
                Issue.record("the ended account was not removed as an account")
                return
            }
            #expect(removed.did == alice.did)
            #expect(revocation == .revoked, "the revocation made when the key was removed")
            let gone = await #expect(throws: AccountError.self) { try await accounts.account(.did(alice.did)) }
            #expect(gone?.code == .noSuchAccount)
            #expect(try world.keystore.names().allSatisfy { !$0.hasPrefix("ended-session/") })
        }
    }

    @Test("A session whose key left the published set ends at the next refresh, naming the key")
    func keyRemovedAtTheServer() async throws {
        try await Self.withService { world, clientID, document in
            let accounts = world.accounts()
            let key = ClientKey()
            _ = try await accounts.addClientKey(key)
            document.published.withLock { $0 = [key] }
            let alice = try await Self.signIn("alice.test", world: world, accounts: accounts, clientID: clientID)
            document.published.withLock { $0 = [ClientKey()] }
            _ = world.server.resetClientCache()
            world.clock.advance(by: 3_600)
            let error = await #expect(throws: (any Error).self) {
                try await accounts.client(for: .did(alice.did)).getSession()
            }
            #expect("\(error.map { String(describing: $0) } ?? "")".contains(key.keyID))
            #expect(world.server.counters.sessionsEndedByKeyRemoval == 1)
            #expect(try await accounts.accounts().isEmpty)
        }
    }

    @Test("A key the document does not publish is refused before anything is sent")
    func unpublishedKey() async throws {
        try await Self.withService { world, clientID, document in
            let accounts = world.accounts()
            _ = try await accounts.addClientKey(ClientKey())
            document.published.withLock { $0 = [ClientKey()] }
            await #expect(throws: SessionError.self) {
                try await accounts.hostedClient(clientID: clientID, redirectURI: nil)
            }
            #expect(world.server.counters.clientAssertionsAccepted == 0)
        }
    }

    @Test("In the file store the private key is sealed: no file holds its d")
    func sealedAtRest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try EncryptedFileKeystore(
            directory: directory.appendingPathComponent("home"),
            keySource: .keyFile(directory.appendingPathComponent("store.key"))
        )
        try await SandboxWorld.with { world in
            let key = ClientKey()
            _ = try await world.accounts(keystore: store).addClientKey(key)
            let object = try #require(try JSONSerialization.jsonObject(with: key.privateJWK) as? [String: String])
            let secret = Data(try #require(object["d"]).utf8)
            let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard let data = try? Data(contentsOf: file) else { continue }
                #expect(data.range(of: secret) == nil, "\(file.lastPathComponent)")
            }
        }
    }
}
