import ATClient
import ATOAuthTesting
import ATProtoSyntax
import AccountManager
import DPoPRequestExecutor
import Failures
import Foundation
import HTTPTransport
import Keystore
import OAuthSessionManager
import Sandbox
import Synchronization
import Testing

@Suite("One long-lived connection per account")
struct ConnectionTests {
    @Test("the connection is made once per account and keeps the session in memory")
    func longLived() async throws {
        try await SandboxWorld.with { world in
            let store = CountingKeystore(world.keystore)
            let accounts = world.accounts(keystore: store)
            let alice = try await world.signIn("alice.test", with: accounts)
            let first = try await accounts.connection(for: alice.did)
            let second = try await accounts.connection(for: alice.did)
            #expect(first === second)
            let client = try await accounts.client(for: "alice.test")
            _ = try await client.getSession()
            let loadsBefore = store.loads
            for _ in 0..<20 { _ = try await client.getSession() }
            #expect(store.loads == loadsBefore, "no call decrypts the session or the key again")
        }
    }

    @Test("a routed client acting as the active account reads no session per call, and follows a switch at once")
    func routedActiveAccount() async throws {
        try await SandboxWorld.with { world in
            let store = CountingKeystore(world.keystore)
            let accounts = world.accounts(keystore: store)
            _ = try await world.signIn("alice.test", with: accounts)
            let bob = try await world.signIn("bob.test", with: accounts)
            let client = accounts.client()
            #expect(try await client.getSession().handle == "bob.test")
            let loadsBefore = store.loads
            for _ in 0..<20 { #expect(try await client.getSession().handle == "bob.test") }
            #expect(store.loads == loadsBefore, "no call reads or decrypts the active account's session again")
            // Another process switches the active account: the next call goes out as it.
            _ = try await world.accounts().switchTo("alice.test")
            #expect(try await client.getSession().handle == "alice.test")
            // Bob active again, then his session gone from the store while the active entry still names him: the call
            // says so rather than going out with the connection made before.
            _ = try await world.accounts().switchTo(.did(bob.did))
            #expect(try await client.getSession().handle == "bob.test")
            try world.keystore.delete(Session.entryName(did: bob.did))
            let error = await #expect(throws: AccountError.self) { try await client.getSession() }
            #expect(error?.code == .activeAccountSignedOut)
        }
    }

    @Test("a client for each of many accounts decrypts the accounts once, not every session per client")
    func clientsForManyAccounts() async throws {
        let handles = (0..<12).map { "user\($0).test" }
        let configuration = SandboxConfiguration(
            accounts: handles.map { SandboxAccount(handle: $0) },
            autoApprove: true
        )
        try await SandboxWorld.with(configuration) { world in
            let store = CountingKeystore(world.keystore)
            var dids: [String] = []
            for handle in handles {
                dids.append(try await world.signIn(handle, with: world.accounts(keystore: store)).did.rawValue)
            }
            let accounts = world.accounts(keystore: store)
            let loadsBefore = store.loads
            for did in dids { _ = try await accounts.client(for: try ATIdentifier(validating: did)) }
            for handle in handles { _ = try await accounts.client(for: try ATIdentifier(validating: handle)) }
            // One listing (every session, and the active entry), then each account's session and DPoP key once.
            #expect(store.loads - loadsBefore <= 3 * handles.count + 1)
        }
    }

    @Test("a refresh by another process is picked up from the store, not repeated")
    func refreshElsewhere() async throws {
        try await SandboxWorld.with(SandboxConfiguration(accessTokenLifetime: 600, autoApprove: true)) { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let client = try await accounts.client(for: "alice.test")
            _ = try await client.getSession()
            world.clock.advance(by: 601)
            // Another process refreshes first.
            _ = try await world.sessions().refresh(did: alice.did, replacing: nil)
            #expect(world.server.counters.refreshGrantsSucceeded == 1)
            #expect(try await client.getSession().did == alice.did.rawValue)
            #expect(world.server.counters.refreshGrantsSucceeded == 1)
        }
    }

    @Test("an account signed out by another process fails with a sign-in error")
    func signedOutElsewhere() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            _ = try await world.signIn("alice.test", with: accounts)
            let client = try await accounts.client(for: "alice.test")
            _ = try await client.getSession()
            _ = try await world.accounts().remove("alice.test")
            let error = await #expect(throws: AccountError.self) { try await client.getSession() }
            #expect(error?.code == .noSuchAccount)
        }
    }

    @Test("DPoP nonces survive the process: a new manager sends the kept nonce and meets no challenge")
    func noncesSurvive() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nonces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SandboxWorld.with { world in
            var configuration = world.configuration
            configuration.nonceFile = folder.appendingPathComponent("dpop-nonces.json")
            let first = world.accounts(configuration: configuration)
            _ = try await world.signIn("alice.test", with: first)
            _ = try await first.client().getSession()
            let counting = RecordingTransport(world.transport)
            let second = world.accounts(transport: counting, configuration: configuration)
            _ = try await second.client().getSession()
            #expect(counting.count == 1, "one request: the kept nonce is still accepted")
            let text = try String(contentsOf: configuration.nonceFile!, encoding: .utf8)
            #expect(!text.contains("accessToken") && text.contains(world.endpoints.pds.host() ?? "?"))
        }
    }

    @Test("a nonce file that is a FIFO is not waited on, and the file written in its place is 0600 and alone")
    func nonceFileIsAFIFO() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nonces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let nonceFile = folder.appendingPathComponent("dpop-nonces.json")
        #expect(mkfifo(nonceFile.path, 0o600) == 0)
        try await SandboxWorld.with { world in
            var configuration = world.configuration
            configuration.nonceFile = nonceFile
            let accounts = world.accounts(configuration: configuration)
            _ = try await world.signIn("alice.test", with: accounts)
            _ = try await accounts.client().getSession()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["dpop-nonces.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: nonceFile.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a call's time limit covers its refresh: a slow refresh times the call out, goes on, and is not repeated")
    func limitCoversRefresh() async throws {
        try await SandboxWorld.with(SandboxConfiguration(accessTokenLifetime: 600, autoApprove: true)) { world in
            let accounts = world.accounts()
            let alice = try await world.signIn("alice.test", with: accounts)
            let connection = try await accounts.connection(for: alice.did)
            let request = PDSRequest(path: "/xrpc/com.atproto.server.getSession")
            #expect(try await connection.send(request).status == 200)
            world.server.resetCounters()
            world.clock.advance(by: 601)
            // The refresh re-resolves the DID at the PLC directory, which now answers after 2 s: far beyond the limit.
            world.server.updateConfiguration { $0.faults.slowResponses = 2 }
            let error = await #expect(throws: CallTimeoutError.self) {
                try await connection.send(request, timeout: .milliseconds(200))
            }
            #expect(error?.limit == .milliseconds(200))
            #expect(error?.description.contains("200 ms") == true)
            #expect(error?.description.contains("GET /xrpc/com.atproto.server.getSession as alice.test") == true)
            #expect(error?.category == .failed && error?.remedy == .allowMoreTime)
            #expect(world.server.counters.xrpcRequestHeadsReceived == 0, "the limit passed during the refresh")
            // The refresh was left going, not cut off: the next call uses it and the session stays signed in.
            world.server.updateConfiguration { $0.faults.slowResponses = nil }
            #expect(try await connection.send(request).status == 200)
            #expect(world.server.counters.refreshGrantsSucceeded == 1)
            #expect(world.server.counters.refreshTokenReplays == 0, "no refresh token was sent twice")
        }
    }

    @Test("the logger given to a call gets its debug lines, the refresh-and-retry's too, and never a token")
    func perCallLogger() async throws {
        try await SandboxWorld.with { world in
            let accounts = world.accounts()
            let session = try await world.signInWithRefusedAccessToken(activeIn: accounts)
            let recording = LogRecording()
            let answer = try await accounts.client()
                .execute(XRPCRequest(nsid: NSIDs.getSession), logger: recording.logger)
                .decode(GetSessionAnswer.self)
            #expect(answer.did == session.did.rawValue)
            let lines = recording.lines
            #expect(lines.contains { $0.contains("GET /xrpc/com.atproto.server.getSession as alice.test") })
            #expect(lines.contains { $0.contains("refreshing once") })
            let current = try await accounts.connection(for: session.did).session
            let secrets = [session.accessToken, session.refreshToken, current.accessToken, current.refreshToken]
            for secret in secrets.compactMap(\.self) {
                #expect(!lines.contains { $0.contains(secret) }, "no token in the log")
            }
        }
    }
}
